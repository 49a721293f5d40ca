// SPDX-License-Identifier: MIT
// classify_nodes and dist_from_bw, and where the two rule sets differ.
#include "analysis/classification.h"
#include "analysis/node_roles.h"
#include "analysis/op_categories.h"
#include "analysis/tensor_size.h"
#include "graph/error.h"
#include "tiny_graph.h"

#include <QTest>

using namespace remat;

namespace {

// y = sin(cos(x)); the backward needs cos(x) (for sin') and x (for cos').
JointGraph sinCos()
{
    const auto r = TinyGraph::ref;
    return TinyGraph()
        .placeholder("primals_1")
        .placeholder("tangents_1")
        .call("cos", "aten.cos.default", "[" + r("primals_1") + "]")
        .call("sin", "aten.sin.default", "[" + r("cos") + "]")
        .call("unused", "aten.neg.default", "[" + r("primals_1") + "]")
        .call("cos_1", "aten.cos.default", "[" + r("cos") + "]")
        .call("mul", "aten.mul.Tensor", "[" + r("tangents_1") + "," + r("cos_1") + "]")
        .call("sin_1", "aten.sin.default", "[" + r("primals_1") + "]")
        .call("mul_1", "aten.mul.Tensor", "[" + r("mul") + "," + r("sin_1") + "]")
        .output({"sin"}, {"mul_1"})
        .build();
}

NodeClasses classify(const JointGraph& g, RuleSet rules)
{
    const WorkGraph work(g);
    const OpCategories ops(g, rules, OpListCompiler::Nvfuser);
    return classifyNodes(work, ops);
}

} // namespace

class TestClassification : public QObject {
    Q_OBJECT

private slots:
    void requiredForwardBackwardAndUnclaimed()
    {
        const JointGraph g = sinCos();
        const NodeClasses c = classify(g, RuleSet::Torch113);
        QVERIFY(c.isRequiredFw(g.find("primals_1")));
        QVERIFY(c.isRequiredFw(g.find("cos")));
        QVERIFY(c.isRequiredFw(g.find("sin")));
        QVERIFY(c.isRequiredBw(g.find("tangents_1")));
        QVERIFY(c.isRequiredBw(g.find("mul")));
        QVERIFY(c.isRequiredBw(g.find("mul_1")));
        QVERIFY(c.isUnclaimed(g.find("cos_1"))); // from primals only, but no forward output needs it
        QVERIFY(c.isUnclaimed(g.find("sin_1")));
        QVERIFY(c.isUnclaimed(g.find("unused")));
        QCOMPARE(c.inputs, std::vector<NodeId> {g.find("primals_1")});
    }

    void distanceFromTheBackward()
    {
        const JointGraph g = sinCos();
        // 1.13: the output node counts as backward, so `sin` (a forward output) is 1 away.
        const NodeClasses old = classify(g, RuleSet::Torch113);
        QCOMPARE(old.dist(g.find("sin")), 1);
        QCOMPARE(old.dist(g.find("cos")), 1); // cos_1 (unclaimed) reads it
        QCOMPARE(old.dist(g.find("cos_1")), 0);
        // newest: the output node is "far" (10^9), so a value only the outputs read stays far.
        const NodeClasses newest = classify(g, RuleSet::Newest);
        QCOMPARE(newest.dist(g.find("sin")), NodeClasses::kFar);
        QCOMPARE(newest.dist(g.find("cos")), 1);
        QCOMPARE(newest.fwOrder[std::size_t(g.find("cos"))], 1);
    }

    void placeholderRoles()
    {
        const JointGraph g = TinyGraph()
                                 .placeholder("primals_1")
                                 .placeholder("tangents_1")
                                 .placeholder("fwd_seed")
                                 .placeholder("bwd_base_offset")
                                 .call("a", "aten.cos.default", "[" + TinyGraph::ref("primals_1") + "]")
                                 .output({"a"}, {""})
                                 .build();
        QVERIFY(isTangent(g, g.find("tangents_1")));
        QVERIFY(isFwdSeedOffset(g, g.find("fwd_seed")));
        QVERIFY(isBwdSeedOffset(g, g.find("bwd_base_offset")));
        QVERIFY(isPrimalNewest(g, g.find("primals_1")));
        QVERIFY(!isPrimalNewest(g, g.find("fwd_seed")));
        QVERIFY(isPrimal113(g, g.find("fwd_seed"))); // 1.13: any non-tangent placeholder
        const NodeClasses newest = classify(g, RuleSet::Newest);
        QCOMPARE(newest.inputs, (std::vector<NodeId> {g.find("primals_1"), g.find("fwd_seed")}));
    }

    void sizesForEveryDtype_data()
    {
        QTest::addColumn<QString>("dtype");
        QTest::addColumn<int>("itemSize");
        QTest::addColumn<bool>("knownTo113");
        QTest::addRow("float32") << "float32" << 4 << true;
        QTest::addRow("bfloat16") << "bfloat16" << 2 << true;
        QTest::addRow("float16") << "torch.float16" << 2 << true;
        QTest::addRow("float64") << "float64" << 8 << true;
        QTest::addRow("bool") << "bool" << 1 << true;
        QTest::addRow("int64") << "int64" << 8 << true;
        QTest::addRow("complex64") << "complex64" << 8 << false;
        QTest::addRow("complex128") << "complex128" << 16 << false;
        QTest::addRow("float8_e4m3fn") << "float8_e4m3fn" << 1 << false;
        QTest::addRow("uint16") << "uint16" << 2 << false;
        QTest::addRow("qint32") << "qint32" << 4 << false;
    }

    void sizesForEveryDtype()
    {
        QFETCH(QString, dtype);
        QFETCH(int, itemSize);
        QFETCH(bool, knownTo113);
        const auto parsed = parseDtype(dtype.toStdString());
        QVERIFY(parsed);
        QCOMPARE(dtypeItemSize(*parsed), itemSize);
        QCOMPARE(dtypeKnownToTorch113(*parsed), knownTo113);
        Node node;
        node.name = "n";
        node.valueKind = ValueKind::Tensor;
        node.values.emplace_back(TensorMeta {{3, 5}, {5, 1}, *parsed, "cpu"});
        QCOMPARE(partitionerSizeOf(node, RuleSet::Newest), 15 * itemSize);
        if (knownTo113)
            QCOMPARE(partitionerSizeOf(node, RuleSet::Torch113), 15 * itemSize);
        else
            QVERIFY_THROWS_EXCEPTION(Error, partitionerSizeOf(node, RuleSet::Torch113));
    }

    void opCategoriesPerRuleSet()
    {
        const auto r = TinyGraph::ref;
        const JointGraph g
            = TinyGraph()
                  .placeholder("primals_1")
                  .placeholder("tangents_1")
                  .call("v", "aten.view.default", "[" + r("primals_1") + ",[64]]")
                  .call("s", "aten._softmax.default", "[" + r("primals_1") + ",1,false]")
                  .call("m", "aten.mm.default", "[" + r("primals_1") + "," + r("primals_1") + "]")
                  .call(
                      "g", "aten.sigmoid_backward.default", "[" + r("primals_1") + "," + r("primals_1") + "]")
                  .output({"m"}, {""})
                  .build();
        const auto op = [&](const char* name) { return g.node(g.find(name)).target; };
        const OpCategories nvfuser(g, RuleSet::Torch113, OpListCompiler::Nvfuser);
        const OpCategories inductor(g, RuleSet::Torch113, OpListCompiler::Inductor);
        const OpCategories newest(g, RuleSet::Newest, OpListCompiler::Nvfuser);
        QVERIFY(
            !nvfuser.recomputable(op("v")) && inductor.recomputable(op("v")) && newest.recomputable(op("v")));
        QVERIFY(newest.view(op("v")) && !nvfuser.view(op("v")));
        QVERIFY(nvfuser.recomputable(op("s")) && !newest.recomputable(op("s"))); // softmax left the list
        QVERIFY(newest.computeIntensive(op("m")) && !newest.recomputable(op("m")));
        QVERIFY(
            newest.recomputable(op("g")) && !nvfuser.recomputable(op("g"))); // pointwise-tagged in newer ATen
    }
};

QTEST_GUILESS_MAIN(TestClassification)
#include "tst_classification.moc"
