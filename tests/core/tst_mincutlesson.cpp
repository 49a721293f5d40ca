// SPDX-License-Identifier: MIT
// The teaching view's network and cut are the partitioner's own: the saved values and cut value
// equal partitionGraph's under both rule sets, every cut edge is a save edge of a saved value,
// and a region keeps only its own vertices.
#include "budget_test_support.h"
#include "partition/min_cut_preparation.h"
#include "partition/partitioner.h"
#include "teaching/min_cut_lesson.h"

#include <QTest>

#include <algorithm>

using namespace remat;

Q_DECLARE_METATYPE(remat::RuleSet)

class TestMinCutLesson : public QObject {
    Q_OBJECT

private slots:
    void lessonIsThePartitionersCut_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<RuleSet>("rules");
        for (const RuleSet rules : {RuleSet::Torch113, RuleSet::Newest}) {
            for (const char* name : {"mlp3_relu.json", "gelu_ln_mlp.json", "transformer_encoder_block.json",
                     "lstm_unrolled8.json"})
                QTest::addRow("%s %s", name, ruleSetName(rules).data()) << QString::fromLatin1(name) << rules;
        }
    }

    void lessonIsThePartitionersCut()
    {
        QFETCH(QString, file);
        QFETCH(RuleSet, rules);
        const JointGraph graph = loadGraphFile(testing::oraclePath(file.toStdString().c_str()));
        PartitionOptions options;
        options.rules = rules;
        const PartitionResult result = partitionGraph(graph, options);
        const PreparedMinCut prepared(graph, options);
        const MinCutLesson lesson = buildMinCutLesson(prepared, {});
        QCOMPARE(lesson.cutValue, *result.cutValue);
        QCOMPARE(lesson.regionCutValue, lesson.cutValue); // the whole graph is the region
        std::vector<NodeId> saved = lesson.saved;
        QCOMPARE(saved, result.savedValues);
        int cutEdges = 0;
        for (const MinCutLesson::Edge& e : lesson.edges) {
            if (!e.cut)
                continue;
            ++cutEdges;
            QCOMPARE(e.kind, MinCutLesson::EdgeKind::Save);
            const MinCutLesson::Vertex& in = lesson.vertices[static_cast<std::size_t>(e.from)];
            QVERIFY(std::binary_search(saved.begin(), saved.end(), in.node));
            QVERIFY(!in.sinkSide);
            QVERIFY(lesson.vertices[static_cast<std::size_t>(e.to)].sinkSide);
        }
        QCOMPARE(cutEdges, static_cast<int>(saved.size()));
        // The whole network's edges; its vertices that have any (split nodes nothing touches are not drawn).
        QCOMPARE(static_cast<int>(lesson.edges.size()), lesson.totalEdges);
        QVERIFY(static_cast<int>(lesson.vertices.size()) <= lesson.totalVertices);
        std::vector<char> used(lesson.vertices.size(), 0);
        for (const MinCutLesson::Edge& e : lesson.edges)
            used[static_cast<std::size_t>(e.from)] = used[static_cast<std::size_t>(e.to)] = 1;
        QVERIFY(std::all_of(used.begin(), used.end(), [](char u) { return u != 0; }));
        std::vector<NodeId> bannedNodes;
        for (const BannedNode& b : lesson.banned)
            bannedNodes.push_back(b.node);
        std::vector<NodeId> expectedBans;
        for (const BannedNode& b : result.banned)
            expectedBans.push_back(b.node);
        QCOMPARE(bannedNodes, expectedBans);
    }

    void regionKeepsItsOwnPart()
    {
        const JointGraph graph = loadGraphFile(testing::oraclePath("gpt_n2.json"));
        PartitionOptions options;
        options.rules = RuleSet::Newest;
        const PreparedMinCut prepared(graph, options);
        const MinCutLesson whole = buildMinCutLesson(prepared, {});
        std::vector<NodeId> region;
        for (NodeId n = 0; n < 60; ++n)
            region.push_back(n);
        const MinCutLesson part = buildMinCutLesson(prepared, region);
        QCOMPARE(part.cutValue, whole.cutValue);
        QVERIFY(part.vertices.size() < whole.vertices.size());
        for (const MinCutLesson::Vertex& v : part.vertices) {
            if (v.node != kNoNode)
                QVERIFY(std::find(region.begin(), region.end(), v.node) != region.end());
        }
        for (NodeId n : part.saved)
            QVERIFY(std::find(whole.saved.begin(), whole.saved.end(), n) != whole.saved.end());
    }
};

QTEST_GUILESS_MAIN(TestMinCutLesson)
#include "tst_mincutlesson.moc"
