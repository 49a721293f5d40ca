// SPDX-License-Identifier: MIT
// fx_graph_cse, including the Python equality and hashing quirks the 1.13 pass inherits, and what
// torch 2.14 changed.
#include "analysis/op_categories.h"
#include "partition/cse.h"
#include "tiny_graph.h"

#include <QTest>

using namespace remat;

namespace {

/// Names of the nodes merged away, as "dropped->kept".
QStringList merges(const JointGraph& g, RuleSet rules = RuleSet::Torch113)
{
    const WorkGraph work(g);
    const OpCategories ops(g, rules, OpListCompiler::Nvfuser);
    const auto mergedInto = findCommonSubexpressions(work, ops);
    QStringList out;
    for (std::size_t i = 0; i < mergedInto.size(); ++i) {
        if (mergedInto[i] != kNoNode)
            out << QString::fromStdString(g.nodes()[i].name + "->" + g.node(mergedInto[i]).name);
    }
    return out;
}

/// x, then `a` and `b` calls of `target` with the given args (JSON, x is {"node":"x"}).
JointGraph twoCalls(const std::string& target, const std::string& argsA, const std::string& argsB,
    const std::string& kwargsA = "{}", const std::string& kwargsB = "{}")
{
    return TinyGraph()
        .placeholder("x")
        .placeholder("tangents_1")
        .call("a", target, argsA, kwargsA)
        .call("b", target, argsB, kwargsB)
        .call("c", "aten.add.Tensor", "[" + TinyGraph::ref("a") + "," + TinyGraph::ref("b") + "]")
        .output({"c"}, {""})
        .build();
}

const std::string x = TinyGraph::ref("x");

} // namespace

class TestCse : public QObject {
    Q_OBJECT

private slots:
    void mergesIdenticalCalls()
    {
        QCOMPARE(merges(twoCalls("aten.mul.Scalar", "[" + x + ",2]", "[" + x + ",2]")), QStringList {"b->a"});
    }

    void keepsDifferentCalls_data()
    {
        QTest::addColumn<QString>("argsA");
        QTest::addColumn<QString>("argsB");
        QTest::addColumn<QString>("kwargsA");
        QTest::addColumn<QString>("kwargsB");
        QTest::addRow("other scalar") << "[X,2]"
                                      << "[X,3]"
                                      << "{}"
                                      << "{}";
        QTest::addRow("int vs string") << "[X,1]"
                                       << "[X,\"1\"]"
                                       << "{}"
                                       << "{}";
        QTest::addRow("list structure") << "[X,[1,2]]"
                                        << "[X,[1],2]"
                                        << "{}"
                                        << "{}";
        QTest::addRow("kwarg value") << "[X]"
                                     << "[X]"
                                     << "{\"alpha\":1}"
                                     << "{\"alpha\":2}";
        QTest::addRow("second kwarg") << "[X]"
                                      << "[X]"
                                      << "{\"a\":1,\"b\":2}"
                                      << "{\"a\":1,\"b\":3}";
        QTest::addRow("kwarg name") << "[X]"
                                    << "[X]"
                                    << "{\"alpha\":1}"
                                    << "{\"beta\":1}";
        QTest::addRow("repr") << "[X,{\"repr\":\"torch.float32\"}]"
                              << "[X,{\"repr\":\"torch.float16\"}]"
                              << "{}"
                              << "{}";
    }
    void keepsDifferentCalls()
    {
        QFETCH(QString, argsA);
        QFETCH(QString, argsB);
        QFETCH(QString, kwargsA);
        QFETCH(QString, kwargsB);
        const auto sub = [](QString s) {
            return s.replace(QLatin1String("X"), QString::fromStdString(x)).toStdString();
        };
        QCOMPARE(merges(twoCalls("aten.mul.Scalar", sub(argsA), sub(argsB), sub(kwargsA), sub(kwargsB))),
            QStringList {});
    }

    void pythonEqualityMergesIntFloatAndBool()
    {
        // (x, 1) == (x, 1.0) == (x, True) in Python, and their hashes agree.
        QCOMPARE(
            merges(twoCalls("aten.mul.Scalar", "[" + x + ",1]", "[" + x + ",1.0]")), QStringList {"b->a"});
        QCOMPARE(
            merges(twoCalls("aten.mul.Scalar", "[" + x + ",1]", "[" + x + ",true]")), QStringList {"b->a"});
    }

    void hashCollisionBlocksLaterMerges()
    {
        // hash(-1) == hash(-2) in CPython: mul(x,-2) meets hash_env's entry for mul(x,-1), compares
        // unequal, and is kept; the second mul(x,-2) meets the same entry again and is kept too.
        const JointGraph g = TinyGraph()
                                 .placeholder("x")
                                 .placeholder("tangents_1")
                                 .call("a", "aten.mul.Scalar", "[" + x + ",-1]")
                                 .call("b", "aten.mul.Scalar", "[" + x + ",-2]")
                                 .call("c", "aten.mul.Scalar", "[" + x + ",-2]")
                                 .call("d", "aten.mul.Scalar", "[" + x + ",-1]")
                                 .call("s", "aten.stack.default",
                                     "[[" + TinyGraph::ref("a") + "," + TinyGraph::ref("b") + ","
                                         + TinyGraph::ref("c") + "," + TinyGraph::ref("d") + "]]")
                                 .output({"s"}, {""})
                                 .build();
        QCOMPARE(merges(g), QStringList {"d->a"});
    }

    void substitutesMergedInputs()
    {
        // b merges into a, so f(b) is f(a) and merges too.
        const JointGraph g
            = TinyGraph()
                  .placeholder("x")
                  .placeholder("tangents_1")
                  .call("a", "aten.cos.default", "[" + x + "]")
                  .call("b", "aten.cos.default", "[" + x + "]")
                  .call("fa", "aten.sin.default", "[" + TinyGraph::ref("a") + "]")
                  .call("fb", "aten.sin.default", "[" + TinyGraph::ref("b") + "]")
                  .call("c", "aten.add.Tensor", "[" + TinyGraph::ref("fa") + "," + TinyGraph::ref("fb") + "]")
                  .output({"c"}, {""})
                  .build();
        QCOMPARE(merges(g), (QStringList {"b->a", "fb->fa"}));
    }

    void randomOpsAreNeverMerged()
    {
        QCOMPARE(merges(twoCalls("aten.rand_like.default", "[" + x + "]", "[" + x + "]")), QStringList {});
        QCOMPARE(
            merges(twoCalls("aten.native_dropout.default", "[" + x + ",0.5,true]", "[" + x + ",0.5,true]")),
            QStringList {});
    }

    void inPlaceBernoulliIsMergedBy113()
    {
        // 1.13's rand_ops lists aten.bernoulli, not aten.bernoulli_: CPU dropout masks merge.
        QCOMPARE(merges(twoCalls("aten.bernoulli_.float", "[" + x + ",0.5]", "[" + x + ",0.5]")),
            QStringList {"b->a"});
    }

    void newestDoesNotMergeAcrossMutations()
    {
        const JointGraph g = TinyGraph()
                                 .placeholder("x")
                                 .placeholder("tangents_1")
                                 .call("a", "aten.cos.default", "[" + x + "]")
                                 .call("m", "aten.bernoulli_.float", "[" + x + ",0.5]")
                                 .call("b", "aten.cos.default", "[" + x + "]")
                                 .call("c", "aten.cos.default", "[" + x + "]")
                                 .call("s", "aten.stack.default",
                                     "[[" + TinyGraph::ref("a") + "," + TinyGraph::ref("b") + ","
                                         + TinyGraph::ref("c") + "," + TinyGraph::ref("m") + "]]")
                                 .output({"s"}, {""})
                                 .build();
        QCOMPARE(merges(g, RuleSet::Torch113), (QStringList {"b->a", "c->a"}));
        QCOMPARE(merges(g, RuleSet::Newest), QStringList {"c->b"});
    }

    // torch 2.14.1's fx_graph_cse (torch/_functorch/compile_utils.py, and the partition_key of
    // partitioners.py), where it differs from 1.13's.
    void scalarsAreKeyedByType_data()
    {
        // The scalar argument of two otherwise identical calls, "a b".
        QTest::addColumn<QString>("scalars");
        QTest::addColumn<bool>("merged113");
        QTest::addColumn<bool>("merged214");
        // 2.14 hashes (value, type(value)): 0 and 0.0 never meet; 1.13 follows Python's 0 == 0.0.
        QTest::addRow("0 and 0.0") << QStringLiteral("0 0.0") << true << false;
        QTest::addRow("1 and true") << QStringLiteral("1 true") << true << false;
        QTest::addRow("0 and 0") << QStringLiteral("0 0") << true << true;
        QTest::addRow("0.5 and 0.5") << QStringLiteral("0.5 0.5") << true << true;
        // Floats are keyed by their bits: -0.0 is not 0.0.
        QTest::addRow("0.0 and -0.0") << QStringLiteral("0.0 -0.0") << true << false;
        // CPython's hash(-1) == hash(-2): only the first node with that hash is compared, in both.
        QTest::addRow("-1 and -2") << QStringLiteral("-1 -2") << false << false;
    }
    void scalarsAreKeyedByType()
    {
        QFETCH(QString, scalars);
        QFETCH(bool, merged113);
        QFETCH(bool, merged214);
        const QStringList ab = scalars.split(QLatin1Char(' '));
        const auto g = twoCalls(
            "aten.scalar_tensor.default", "[" + ab[0].toStdString() + "]", "[" + ab[1].toStdString() + "]");
        QCOMPARE(merges(g, RuleSet::Torch113), merged113 ? QStringList {"b->a"} : QStringList {});
        QCOMPARE(merges(g, RuleSet::Torch214), merged214 ? QStringList {"b->a"} : QStringList {});
    }

    void forwardOnlyNeverMergesWithWhatTheBackwardNeeds()
    {
        // `a` feeds only the forward output; its twin `b` feeds the gradient. 1.13 merges them
        // (and then must save `a`); 2.14's partition key keeps them apart.
        const auto g
            = TinyGraph()
                  .placeholder("x")
                  .placeholder("tangents_1")
                  .call("a", "aten.cos.default", "[" + x + "]")
                  .call("b", "aten.cos.default", "[" + x + "]")
                  .call("c", "aten.cos.default", "[" + x + "]")
                  .call("g", "aten.mul.Tensor",
                      "[" + TinyGraph::ref("b") + "," + TinyGraph::ref("tangents_1") + "]")
                  .call("h", "aten.mul.Tensor", "[" + TinyGraph::ref("c") + "," + TinyGraph::ref("g") + "]")
                  .output({"a"}, {"h"})
                  .build();
        QCOMPARE(merges(g, RuleSet::Torch113), (QStringList {"b->a", "c->a"}));
        QCOMPARE(merges(g, RuleSet::Torch214), QStringList {"c->b"}); // both backward dependencies
    }

    void randomAndImpureOpsAreNeverMerged()
    {
        // sdpa carries nondeterministic_seeded: fx's is_impure() keeps it out of CSE in 2.14.
        const auto sdpa = twoCalls("aten._scaled_dot_product_flash_attention_for_cpu.default",
            "[" + x + "," + x + "," + x + "]", "[" + x + "," + x + "," + x + "]");
        QCOMPARE(merges(sdpa, RuleSet::Torch214), QStringList {});
        const auto assertion = twoCalls("aten._assert_async.msg", "[" + x + ",\"m\"]", "[" + x + ",\"m\"]");
        QCOMPARE(merges(assertion, RuleSet::Torch214), QStringList {});
    }
};

QTEST_GUILESS_MAIN(TestCse)
#include "tst_cse.moc"
