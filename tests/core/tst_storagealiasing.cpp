// SPDX-License-Identifier: MIT
// Storage aliasing derived from view semantics, and the allocator's view of saved activations.
#include "budget/storage_aliasing.h"
#include "budget_test_support.h"
#include "partition/work_graph.h"

#include <QTest>

using namespace remat;
using remat::testing::f32;
using remat::testing::graphFromNodes;

namespace {

std::string n(const std::string& name, const std::string& op, const std::string& target,
    const std::string& args, const std::string& val)
{
    return R"({"name":")" + name + R"(","op":")" + op + R"(","target":")" + target + R"(","args":)" + args
        + R"(,"kwargs":{},"val":)" + val + R"(,"meta":{}})";
}
std::string ref(const char* name)
{
    return std::string(R"({"node":")") + name + R"("})";
}

JointGraph aliasGraph()
{
    const std::string transposed = R"({"shape":[4,4],"dtype":"float32","stride":[1,4],"device":"cpu"})";
    const std::string nodes = "[" + n("primals_1", "placeholder", "primals_1", "[]", f32({4, 4})) + ","
        + n("t", "call_function", "aten.t.default", "[" + ref("primals_1") + "]", f32({4, 4})) + ","
        + n("cos", "call_function", "aten.cos.default", "[" + ref("primals_1") + "]", f32({4, 4})) + ","
        + n("view", "call_function", "aten.view.default", "[" + ref("cos") + ",[16]]", f32({16})) + ","
        + n("split", "call_function", "aten.split.Tensor", "[" + ref("cos") + ",2]",
            "[" + f32({2, 4}) + "," + f32({2, 4}) + "]")
        + "," + n("getitem", "call_function", "_operator.getitem", "[" + ref("split") + ",0]", f32({2, 4}))
        + "," + n("getitem_1", "call_function", "_operator.getitem", "[" + ref("split") + ",1]", f32({2, 4}))
        + ","
        + n("max", "call_function", "aten.max.dim", "[" + ref("cos") + ",1]",
            "[" + f32({4}) + "," + f32({4}, "int64") + "]")
        + "," + n("getitem_2", "call_function", "_operator.getitem", "[" + ref("max") + ",0]", f32({4})) + ","
        + n("getitem_3", "call_function", "_operator.getitem", "[" + ref("max") + ",1]", f32({4}, "int64"))
        + ","
        + n("empty_like", "call_function", "aten.empty_like.default", "[" + ref("cos") + "]", f32({4, 4}))
        + ","
        + n("bernoulli_", "call_function", "aten.bernoulli_.float", "[" + ref("empty_like") + ",0.5]",
            f32({4, 4}))
        + ","
        + n("reshape", "call_function", "aten.reshape.default", "[" + ref("cos") + ",[2,8]]", f32({2, 8}))
        + "," + n("tt", "call_function", "aten.t.default", "[" + ref("cos") + "]", transposed) + ","
        + n("reshape_1", "call_function", "aten.reshape.default", "[" + ref("tt") + ",[16]]", f32({16})) + ","
        + n("clone", "call_function", "aten.clone.default", "[" + ref("cos") + "]", f32({4, 4})) + ","
        + n("detach", "call_function", "aten.detach.default", "[" + ref("view") + "]", f32({16})) + ","
        + R"({"name":"output","op":"output","target":"output","args":[[)" + ref("t") + "," + ref("getitem")
        + "," + ref("getitem_1") + "," + ref("getitem_2") + "," + ref("getitem_3") + "," + ref("bernoulli_")
        + "," + ref("reshape") + "," + ref("reshape_1") + "," + ref("clone") + "," + ref("detach")
        + R"(]],"kwargs":{},"val":null,"meta":{}})" + "]";
    return graphFromNodes(nodes, 10, "alias.json");
}

} // namespace

class TestStorageAliasing : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        m_graph = std::make_unique<JointGraph>(aliasGraph());
        m_work = std::make_unique<WorkGraph>(*m_graph);
        m_storages = std::make_unique<StorageMap>(*m_work);
    }

    void viewsShareTheirBase_data()
    {
        QTest::addColumn<QString>("node");
        QTest::addColumn<QString>("base");
        QTest::addRow("transpose of a weight") << "t"
                                               << "primals_1";
        QTest::addRow("view") << "view"
                              << "cos";
        QTest::addRow("getitem of a split") << "getitem"
                                            << "cos";
        QTest::addRow("second getitem of a split") << "getitem_1"
                                                   << "cos";
        QTest::addRow("in-place op") << "bernoulli_"
                                     << "empty_like";
        QTest::addRow("reshape of a contiguous tensor") << "reshape"
                                                        << "cos";
        QTest::addRow("detach of a view") << "detach"
                                          << "cos";
    }
    void viewsShareTheirBase()
    {
        QFETCH(QString, node);
        QFETCH(QString, base);
        const auto a = m_storages->storageOf(m_graph->find(node.toStdString()));
        const auto b = m_storages->storageOf(m_graph->find(base.toStdString()));
        QVERIFY(a && b);
        QCOMPARE(*a, *b);
        QVERIFY(m_storages->allocatedBy(m_graph->find(node.toStdString())).empty());
    }

    void copiesOwnTheirStorage_data()
    {
        QTest::addColumn<QString>("node");
        QTest::newRow("clone") << "clone";
        QTest::newRow("reshape of a transposed tensor") << "reshape_1";
        QTest::newRow("pointwise") << "cos";
    }
    void copiesOwnTheirStorage()
    {
        QFETCH(QString, node);
        const NodeId n = m_graph->find(node.toStdString());
        const auto s = m_storages->storageOf(n);
        QVERIFY(s);
        QCOMPARE(m_storages->owner(*s), n);
        QCOMPARE(m_storages->bytes(*s), std::int64_t {64});
    }

    void tuplesHaveNoSingleStorage()
    {
        // get_node_storage is None for tuples; their elements have storages.
        QVERIFY(!m_storages->storageOf(m_graph->find("split")));
        QVERIFY(!m_storages->storageOf(m_graph->find("max")));
        QCOMPARE(m_storages->allocatedBy(m_graph->find("max")).size(), std::size_t {2});
        const auto values = m_storages->storageOf(m_graph->find("getitem_2"));
        const auto indices = m_storages->storageOf(m_graph->find("getitem_3"));
        QVERIFY(values && indices && *values != *indices);
        QCOMPARE(m_storages->bytes(*values), std::int64_t {16});
        QCOMPARE(m_storages->bytes(*indices), std::int64_t {32});
    }

    void inputsAreNotActivations()
    {
        QVERIFY(m_storages->isInputStorage(*m_storages->storageOf(m_graph->find("t"))));
        QVERIFY(!m_storages->isInputStorage(*m_storages->storageOf(m_graph->find("cos"))));
    }

    void distinctBytesCountEachStorageOnce()
    {
        const auto ids = [&](std::initializer_list<const char*> names) {
            std::vector<NodeId> out;
            for (const char* name : names)
                out.push_back(m_graph->find(name));
            return out;
        };
        QCOMPARE(distinctStorageBytes(*m_storages, ids({"t", "view", "getitem", "detach", "cos"})),
            std::int64_t {64});
        QCOMPARE(distinctStorageBytes(*m_storages, ids({"getitem_2", "getitem_3"})), std::int64_t {48});
        QCOMPARE(distinctStorageBytes(*m_storages, ids({"primals_1", "t"})), std::int64_t {0});
        QCOMPARE(distinctStorageBytes(*m_storages, ids({"cos", "clone", "bernoulli_", "empty_like"})),
            std::int64_t {192});
    }

private:
    std::unique_ptr<JointGraph> m_graph;
    std::unique_ptr<WorkGraph> m_work;
    std::unique_ptr<StorageMap> m_storages;
};

QTEST_GUILESS_MAIN(TestStorageAliasing)
#include "tst_storagealiasing.moc"
