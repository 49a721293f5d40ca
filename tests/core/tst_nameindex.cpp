// SPDX-License-Identifier: MIT
// Node ids by name: found, missing, refused when taken, and still right after the table grows.
#include "graph/name_index.h"

#include <QTest>

using namespace remat;

namespace {

Node named(std::string name)
{
    Node node;
    node.name = std::move(name);
    return node;
}

} // namespace

class TestNameIndex : public QObject {
    Q_OBJECT

private slots:
    void findsWhatWasInserted()
    {
        std::vector<Node> nodes;
        NameIndex index;
        QCOMPARE(index.find("x", nodes), kNoNode);
        for (int i = 0; i < 1000; ++i) { // grows from empty, past many doublings
            nodes.push_back(named("node_" + std::to_string(i)));
            QVERIFY(index.insert(static_cast<NodeId>(i), nodes));
        }
        for (int i = 0; i < 1000; ++i)
            QCOMPARE(index.find("node_" + std::to_string(i), nodes), static_cast<NodeId>(i));
        QCOMPARE(index.find("node_1000", nodes), kNoNode);
        QCOMPARE(index.find("", nodes), kNoNode);
    }

    void refusesATakenName()
    {
        std::vector<Node> nodes {named("a"), named("b"), named("a")};
        NameIndex index;
        index.reserve(nodes.size());
        QVERIFY(index.insert(0, nodes));
        QVERIFY(index.insert(1, nodes));
        QVERIFY(!index.insert(2, nodes));
        QCOMPARE(index.find("a", nodes), NodeId {0});
        QCOMPARE(index.find("b", nodes), NodeId {1});
    }
};

QTEST_GUILESS_MAIN(TestNameIndex)
#include "tst_nameindex.moc"
