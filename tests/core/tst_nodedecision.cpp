// SPDX-License-Identifier: MIT
// Node decisions and their reasons on real graphs: a node the backward computes says whether it
// belongs to the backward proper (downstream of the tangents) or is a forward value left unclaimed,
// checked against the tangents' reach walked here, apart from the partitioner's classification.
#include "explain/node_decision.h"
#include "explain/plan_run.h"
#include "explain_test_support.h"
#include "io/torch_trace.h"

#include <QTest>

#include <algorithm>
#include <string>
#include <vector>

using namespace remat;

namespace {

/// Nodes downstream of a tangent (the tangents included), by the graph's users.
std::vector<char> reachedFromTangents(const JointGraph& graph)
{
    std::vector<char> reached(graph.size(), 0);
    for (std::size_t i = 0; i < graph.size(); ++i) {
        const Node& node = graph.nodes()[i];
        const bool tangent = node.op == NodeOp::Placeholder && node.name.starts_with("tangents");
        bool fromTangent = tangent;
        for (NodeId input : node.inputs)
            fromTangent = fromTangent || reached[static_cast<std::size_t>(input)] != 0;
        reached[i] = fromTangent ? 1 : 0;
    }
    return reached;
}

bool mentions(const std::string& text, const char* word)
{
    return text.find(word) != std::string::npos;
}

} // namespace

class TestNodeDecision : public QObject {
    Q_OBJECT

private slots:
    void backwardNodesSayWhereTheyComeFrom_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("rules");
        QTest::addColumn<QString>("unclaimedExample");
        const QString rng = QStringLiteral(REMAT_TEST_DATA_DIR "/torch_trace/rng.log");
        // getitem_5: the mask of a dropout the backward recomputes; only native_dropout_backward reads it.
        QTest::addRow("rng.log torch-2.14") << rng << int(RuleSet::Newest) << "getitem_5";
        QTest::addRow("gpt_n2 torch-1.13")
            << QString::fromStdString(remat::testing::sharedOraclePath("gpt_n2.json"))
            << int(RuleSet::Torch113) << "";
    }
    void backwardNodesSayWhereTheyComeFrom()
    {
        QFETCH(QString, file);
        QFETCH(int, rules);
        QFETCH(QString, unclaimedExample);
        const JointGraph graph = loadGraphFile(file.toStdString());
        PlanRequest request;
        request.options.rules = static_cast<RuleSet>(rules);
        const PartitionResult result = PlanRunner(graph, BudgetOptions {}).run(request).result;
        const auto decisions = decisionsOf(graph, result);
        const auto fromTangents = reachedFromTangents(graph);
        int backward = 0, unclaimed = 0;
        for (std::size_t i = 0; i < graph.size(); ++i) {
            const NodeId n = static_cast<NodeId>(i);
            const std::string reason = decisionReason(graph, result, n, nullptr);
            QVERIFY2(!reason.empty(), graph.node(n).name.c_str());
            const bool inBackwardGraph
                = std::find(result.bwNodes.begin(), result.bwNodes.end(), n) != result.bwNodes.end();
            if (decisions[i] != NodeDecision::Backward || !inBackwardGraph)
                continue; // the output node, dead code and merged twins have reasons of their own
            ++backward;
            const std::string what = graph.node(n).name + ": " + reason;
            if (fromTangents[i]) {
                QVERIFY2(mentions(reason, "Part of the backward"), what.c_str());
            } else {
                ++unclaimed;
                QVERIFY2(mentions(reason, "unclaimed") && mentions(reason, "runs once, in the backward"),
                    what.c_str());
            }
        }
        QVERIFY(backward > 0);
        if (!unclaimedExample.isEmpty()) {
            QVERIFY(unclaimed > 0);
            const NodeId example = graph.find(unclaimedExample.toStdString());
            QVERIFY(example != kNoNode);
            QCOMPARE(decisions[static_cast<std::size_t>(example)], NodeDecision::Backward);
            QVERIFY(mentions(decisionReason(graph, result, example, nullptr), "unclaimed"));
        }
    }
};

QTEST_GUILESS_MAIN(TestNodeDecision)
#include "tst_nodedecision.moc"
