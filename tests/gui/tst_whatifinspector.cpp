// SPDX-License-Identifier: MIT
// The inspector's what-if: computed off the GUI thread for the selected node, its numbers are the
// core's, the nodes it changes flash, and "Apply" tags the node (undoably) with the same result.
#include "canvas/canvas_state.h"
#include "document/node_selection.h"
#include "explain/plan_run.h"
#include "gui_test_support.h"
#include "main_window_test_support.h"
#include "panels/node_inspector.h"
#include "window/main_window.h"

#include <QSignalSpy>
#include <QTest>
#include <QUndoStack>

#include <algorithm>

using namespace remat;
using namespace remat::ui;
using namespace remat::ui::test;

class TestWhatIfInspector : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { test::isolate(); }

    void flipASavedNodeAndApplyIt()
    {
        MainWindow w;
        QVERIFY(openAndWait(w, test::oraclePath("mlp3_relu.json")));
        const LoadedGraphPtr graph = w.document()->graph();
        const NodeId relu = graph->graph.find("relu");
        QVERIFY(relu != kNoNode);
        QVERIFY(w.document()->outcome()->result->isSaved(relu));

        NodeInspector* inspector = w.inspector();
        w.selection()->selectNode(relu, NodeSelection::Origin::Program);
        QTRY_VERIFY_WITH_TIMEOUT(inspector->analysis() && inspector->analysis()->node == relu, kTimeoutMs);
        const NodeAnalysis& a = *inspector->analysis();
        QCOMPARE(a.error, QString());
        QCOMPARE(a.whatIf.decision, NodeDecision::Saved);
        QCOMPARE(a.whatIf.flipTag, std::optional(CheckpointPolicy::MustRecompute));
        QVERIFY(a.whatIf.feasible);
        QVERIFY(a.neighbourhood && a.neighbourhood->minCut && a.neighbourhood->self.onCut);
        const QString html = inspector->toHtml();
        for (const char* text :
            {"What if", "MUST_RECOMPUTE", "saved bytes", "simulated peak", "Apply", "save edge"})
            QVERIFY2(html.contains(QLatin1String(text)), text);
        // "+1 FLOP" is the relu recomputed, which PyTorch's flops estimator counts as 1: the dock says so.
        QVERIFY2(inspector->toPlainText().contains(QStringLiteral(
                     "+1 FLOP: 1 more recomputed op without a FLOP formula, which PyTorch's flops estimator "
                     "counts as 1 FLOP each.")),
            qPrintable(inspector->toPlainText()));
        // The capacity's formula wraps between the words of "dist_from_bw" in the narrow dock.
        QVERIFY(html.contains(QStringLiteral("1.1^dist_\u200Bfrom_\u200Bbw")));

        // The deltas are those of two independent core runs.
        const PlanRunner runner(graph->graph, BudgetOptions {});
        PlanRequest request;
        request.options = w.document()->partitionOptions();
        const PlanRun before = runner.run(request);
        const PlanRun after = runner.run(withTag(request, relu, CheckpointPolicy::MustRecompute));
        QCOMPARE(a.whatIf.after.savedBytes - a.whatIf.before.savedBytes,
            after.summary.savedBytes - before.summary.savedBytes);
        QCOMPARE(a.whatIf.after.peakBytes - a.whatIf.before.peakBytes,
            after.summary.peakBytes - before.summary.peakBytes);

        // Apply: the node is recomputed now, as the core says; one undo step takes it back.
        inspector->applyFlip();
        QTRY_VERIFY_WITH_TIMEOUT(idle(w) && !w.document()->outcome()->result->isSaved(relu), kTimeoutMs);
        QCOMPARE(w.document()->outcome()->result->savedValues, after.result.savedValues);
        QCOMPARE(w.document()->userOverride(relu), std::optional(CheckpointPolicy::MustRecompute));
        w.document()->undoStack()->undo();
        QTRY_VERIFY_WITH_TIMEOUT(idle(w) && w.document()->outcome()->result->isSaved(relu), kTimeoutMs);
    }

    /// A getitem the checkpoint region recomputes flips through the op it unpacks: PyTorch's
    /// min-cut ignores a getitem's own MUST_SAVE. Apply tags that op, and the getitem is saved.
    void recomputedGetitemAppliesItsOpsTag()
    {
        MainWindow w;
        QVERIFY(openAndWait(w, QStringLiteral(REMAT_TEST_DATA_DIR "/torch_trace/rng.log")));
        const JointGraph& graph = w.document()->graph()->graph;
        const NodeId value = graph.find("getitem_4");
        const NodeId dropout = graph.find("native_dropout_1");
        QVERIFY(value != kNoNode && dropout != kNoNode);
        QVERIFY(!w.document()->outcome()->result->isSaved(value));

        NodeInspector* inspector = w.inspector();
        w.selection()->selectNode(value, NodeSelection::Origin::Program);
        QTRY_VERIFY_WITH_TIMEOUT(inspector->analysis() && inspector->analysis()->node == value, kTimeoutMs);
        QCOMPARE(inspector->analysis()->whatIf.flipNode, dropout);
        const QString text = inspector->toPlainText();
        QVERIFY2(text.contains(QStringLiteral("Tag native_dropout_1, the op it unpacks, MUST_SAVE")),
            qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("Apply: tag native_dropout_1 MUST_SAVE")), qPrintable(text));

        inspector->applyFlip();
        QTRY_VERIFY_WITH_TIMEOUT(idle(w) && w.document()->outcome()->result->isSaved(value), kTimeoutMs);
        QCOMPARE(w.document()->userOverride(dropout), std::optional(CheckpointPolicy::MustSave));
        QCOMPARE(w.document()->userOverride(value), std::optional<CheckpointPolicy>());
    }

    /// A graph that cannot be partitioned (torch 1.13 prints no tensor sizes) says why once, as
    /// the node's decision; the what-if said the same long sentence again.
    void aGraphThatDoesNotPartitionSaysSoOnce()
    {
        MainWindow w;
        w.setInteractive(false);
        w.show();
        w.openFile(QStringLiteral(REMAT_TEST_DATA_DIR "/printed/conv_batchnorm.torch113.txt"));
        QTRY_VERIFY_WITH_TIMEOUT(!w.isBusy() && w.document()->outcome(), kTimeoutMs);
        QVERIFY(!w.document()->outcome()->ok());
        const NodeId conv = w.document()->graph()->graph.find("convolution");
        QVERIFY(conv != kNoNode);
        w.selection()->selectNode(conv, NodeSelection::Origin::Program);
        QTRY_VERIFY_WITH_TIMEOUT(
            w.inspector()->toPlainText().contains(QStringLiteral("convolution")), kTimeoutMs);
        const QString text = w.inspector()->toPlainText();
        QCOMPARE(text.count(QStringLiteral("cannot be partitioned")), 1);
        QVERIFY2(text.contains(QStringLiteral("Nothing to try while the graph does not partition.")),
            qPrintable(text));
        QVERIFY(!w.inspector()->analysis()); // nothing was asked of the analyst
    }

    void bannedNodeSaysWhyAndChangedNodesFlash()
    {
        MainWindow w;
        QVERIFY(openAndWait(w, test::oraclePath("transformer_encoder_block.json")));
        const PartitionResult& result = *w.document()->outcome()->result;
        // A saved node that is banned: the inspector says why, and what a MUST_RECOMPUTE tag would do.
        // (Not a graph input: a saved primal is banned too, but its decision is "input".)
        NodeId banned = kNoNode;
        for (const BannedNode& b : result.banned) {
            if (result.isSaved(b.node)
                && w.document()->graph()->graph.node(b.node).op != NodeOp::Placeholder) {
                banned = b.node;
                break;
            }
        }
        QVERIFY(banned != kNoNode);
        w.selection()->selectNode(banned, NodeSelection::Origin::Program);
        QTRY_VERIFY_WITH_TIMEOUT(
            w.inspector()->analysis() && w.inspector()->analysis()->node == banned, kTimeoutMs);
        QCOMPARE(w.inspector()->analysis()->whatIf.decision, NodeDecision::Banned);
        // torch 1.13's op-list ban gives way to a MUST_RECOMPUTE tag: the flip is offered, and says so.
        QCOMPARE(w.inspector()->analysis()->whatIf.flipTag, std::optional(CheckpointPolicy::MustRecompute));
        QVERIFY(w.inspector()->toHtml().contains(QStringLiteral("lifts the ban")));

        // A saved node whose flip changes others: they flash on the canvas.
        for (NodeId n : result.savedValues) {
            if (result.banReason(n))
                continue;
            QSignalSpy shown(w.inspector(), &NodeInspector::analysisShown);
            w.selection()->selectNode(n, NodeSelection::Origin::Program);
            QTRY_VERIFY_WITH_TIMEOUT(shown.count() > 0, kTimeoutMs);
            const auto& changed = w.inspector()->analysis()->whatIf.changedNodes;
            if (changed.empty())
                continue;
            const CanvasState& state = w.canvas()->scene()->state();
            QVERIFY(
                std::all_of(changed.begin(), changed.end(), [&](NodeId m) { return state.isFlashing(m); }));
            QTRY_VERIFY_WITH_TIMEOUT(!state.isFlashing(changed.front()), 5000); // then it stops
            return;
        }
        QFAIL("no saved node of this graph changes others when flipped");
    }
};

QTEST_MAIN(TestWhatIfInspector)
#include "tst_whatifinspector.moc"
