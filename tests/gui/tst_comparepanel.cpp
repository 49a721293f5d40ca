// SPDX-License-Identifier: MIT
// The Compare Plans dock: the lists are the core's comparison, the canvas colours what only A,
// only B and both save (groups count their differences), and hiding the dock restores the canvas.
#include "canvas/canvas_legend.h"
#include "canvas/canvas_state.h"
#include "canvas/graph_canvas.h"
#include "canvas/graph_scene.h"
#include "explain/plan_comparison.h"
#include "explain/plan_run.h"
#include "gui_test_support.h"
#include "main_window_test_support.h"
#include "panels/compare_panel.h"
#include "panels/plan_choice_editor.h"
#include "window/main_window.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QHeaderView>
#include <QTest>
#include <QTreeWidget>
#include <QUndoStack>

#include <algorithm>

#include <set>

using namespace remat;
using namespace remat::ui;
using namespace remat::ui::test;

namespace {

void choose(PlanChoiceEditor* editor, PlanChoice::Kind kind)
{
    editor->kindBox()->setCurrentIndex(editor->kindBox()->findData(static_cast<int>(kind)));
}

void showDock(MainWindow& w)
{
    auto* dock = w.findChild<QDockWidget*>(QStringLiteral("CompareDock"));
    QVERIFY(dock);
    dock->show();
    dock->raise();
}

/// A = the current plan, B = PyTorch's recorded decision; false when no comparison arrives.
bool comparedWithPyTorch(MainWindow& w)
{
    ComparePanel* panel = w.comparePanel();
    choose(panel->sideA(), PlanChoice::Kind::Current);
    choose(panel->sideB(), PlanChoice::Kind::PyTorch);
    panel->compareNow();
    return QTest::qWaitFor(
        [&] { return panel->pair() && panel->pair()->labelB.contains(QStringLiteral("PyTorch")) && idle(w); },
        kTimeoutMs);
}

} // namespace

class TestComparePanel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { test::isolate(); }

    void identicalToPyTorchThenDifferentBudget()
    {
        MainWindow w;
        QVERIFY(openAndWait(w, test::oraclePath("transformer_encoder_block.json")));
        showDock(w);
        ComparePanel* panel = w.comparePanel();
        QVERIFY(comparedWithPyTorch(w));
        // Our torch-1.13 min-cut is PyTorch 1.13's own decision on this graph.
        QCOMPARE(panel->pair()->error, QString());
        QVERIFY(panel->pair()->comparison.onlyInA.empty());
        QVERIFY(panel->pair()->comparison.onlyInB.empty());
        QCOMPARE(
            panel->pair()->comparison.inBoth.size(), w.document()->outcome()->result->savedValues.size());
        QCOMPARE(panel->table()->topLevelItemCount(), 0);
        QVERIFY(panel->summaryText().contains(QStringLiteral("Both plans save the same values")));
        QVERIFY(panel->table()->isHidden()); // no empty list of differences
        // Without the table the rest stays at the top, not spread over the dock's height.
        QVERIFY(panel->showOnCanvas()->geometry().top() - panel->sideB()->geometry().bottom() < 30);

        // The user's tag changes A, not what PyTorch recorded: the tagged value is saved only by B.
        NodeId tagged = kNoNode;
        for (NodeId n : w.document()->outcome()->result->savedValues) {
            if (w.document()->graph()->graph.node(n).op != NodeOp::Placeholder)
                tagged = n;
        }
        QVERIFY(tagged != kNoNode);
        QCOMPARE(w.document()->tagNodes({tagged}, CheckpointPolicy::MustRecompute), 1);
        QTRY_VERIFY_WITH_TIMEOUT(idle(w), kTimeoutMs);
        panel->compareNow();
        QTRY_VERIFY_WITH_TIMEOUT(
            panel->pair() && panel->pair()->comparison.onlyInB.size() > 0 && idle(w), kTimeoutMs);
        QCOMPARE(panel->pair()->error, QString());
        const auto& onlyB = panel->pair()->comparison.onlyInB;
        QVERIFY(std::find(onlyB.begin(), onlyB.end(), tagged) != onlyB.end());
        w.document()->undoStack()->undo();
        QTRY_VERIFY_WITH_TIMEOUT(idle(w), kTimeoutMs);

        // Against a small budget the plans differ; the table lists exactly the core's differences.
        PlanChoice budget;
        budget.kind = PlanChoice::Kind::Budget;
        budget.budget = 0.1;
        panel->sideB()->setChoice(budget);
        panel->compareNow();
        QTRY_VERIFY_WITH_TIMEOUT(
            panel->pair() && panel->pair()->labelB.contains(QStringLiteral("0.1")) && idle(w), kTimeoutMs);
        const PlanComparison& c = panel->pair()->comparison;
        QVERIFY(!c.onlyInA.empty() || !c.onlyInB.empty());
        QCOMPARE(panel->table()->topLevelItemCount(), static_cast<int>(c.onlyInA.size() + c.onlyInB.size()));
        QVERIFY(!panel->table()->isHidden());
        QVERIFY(!panel->summaryText().contains(QStringLiteral("same values")));
        // B's numbers are the core's for that budget plan.
        const PlanRunner runner(w.document()->graph()->graph, BudgetOptions {});
        PlanRequest request;
        request.options = w.document()->partitionOptions();
        request.budget = 0.1;
        const PlanRun b = runner.run(request);
        QCOMPARE(panel->pair()->b->savedValues, b.result.savedValues);
        QCOMPARE(c.b.peakBytes, b.summary.peakBytes);
        QVERIFY(panel->summaryText().contains(QStringLiteral("B − A")));
        // In a narrow dock the bytes and who saves them still read whole (bytes were cut: "8.00 K").
        QTreeWidget* table = panel->table();
        table->resize(200, 300);
        QTRY_VERIFY_WITH_TIMEOUT(table->header()->length() <= table->viewport()->width(), kTimeoutMs);
        for (int column : {1, 2}) {
            int widest = 0;
            for (int row = 0; row < table->topLevelItemCount(); ++row)
                widest = std::max(
                    widest, table->fontMetrics().horizontalAdvance(table->topLevelItem(row)->text(column)));
            QVERIFY(table->header()->sectionSize(column) > widest);
        }

        // The canvas colours by side; the state agrees with the lists.
        const CanvasState& state = w.canvas()->scene()->state();
        QVERIFY(state.comparingPlans());
        for (NodeId n : c.onlyInA)
            QCOMPARE(state.planSide(n), CanvasState::OnlyA);
        for (NodeId n : c.onlyInB)
            QCOMPARE(state.planSide(n), CanvasState::OnlyB);
        for (NodeId n : c.inBoth)
            QCOMPARE(state.planSide(n), CanvasState::InBoth);
        // The legend keys those fills, not the regions' (it kept "forward", "backward", ...).
        CanvasLegend* legend = w.canvas()->legend();
        QCOMPARE(legend->fills(), CanvasLegend::Fills::Plans);
        QCOMPARE(legend->labelText(0), QStringLiteral("saved by plan A only"));

        // Another tab in front (the Inspector's) gives the canvas its decision colours back, as
        // hiding the dock does; the Compare tab in front again brings the comparison back.
        w.findChild<QDockWidget*>(QStringLiteral("InspectorDock"))->raise();
        QTRY_VERIFY_WITH_TIMEOUT(!state.comparingPlans(), kTimeoutMs);
        showDock(w);
        QTRY_VERIFY_WITH_TIMEOUT(state.comparingPlans(), kTimeoutMs);
        w.findChild<QDockWidget*>(QStringLiteral("CompareDock"))->hide();
        QVERIFY(!state.comparingPlans());
        QCOMPARE(legend->fills(), CanvasLegend::Fills::Regions);
    }

    /// Dynamic shapes: PyTorch's plan passes SymInts to the backward. Comparing with it failed
    /// (re-extracted from its tensors alone), and SymInts were not compared.
    void pyTorchsDynamicShapePlanComparesItsSymInts()
    {
        MainWindow w;
        QVERIFY(openAndWait(w, QStringLiteral(REMAT_TEST_DATA_DIR "/torch_trace/replaced_symbol.log")));
        showDock(w);
        ComparePanel* panel = w.comparePanel();
        QVERIFY(comparedWithPyTorch(w));
        QCOMPARE(panel->pair()->error, QString());
        const QString summary = panel->summaryText();
        QVERIFY2(summary.contains(QStringLiteral("3 saved (484 B) + 3 SymInts")), qPrintable(summary));
        QVERIFY2(summary.contains(QStringLiteral("3 saved (484 B) + 4 SymInts")), qPrintable(summary));
        QVERIFY2(summary.contains(QStringLiteral("primals_3 and primals_5 print as Sym(s8)")),
            qPrintable(summary));
        QCOMPARE(panel->table()->topLevelItemCount(), 1);
        QCOMPARE(panel->table()->topLevelItem(0)->text(0), QStringLiteral("primals_3"));
        QCOMPARE(panel->table()->topLevelItem(0)->text(1), QStringLiteral("B only"));
    }

    /// Random ops the backward replays: each plan's RNG states show beside its saved values.
    void eachPlansRngStatesShow()
    {
        MainWindow w;
        QVERIFY(openAndWait(w, QStringLiteral(REMAT_TEST_DATA_DIR "/torch_trace/rng.log")));
        showDock(w);
        ComparePanel* panel = w.comparePanel();
        QVERIFY(comparedWithPyTorch(w));
        QCOMPARE(panel->pair()->error, QString());
        const QString summary = panel->summaryText();
        QVERIFY2(
            summary.count(QStringLiteral("13 saved (4.33 KiB) + 2 RNG states")) == 2, qPrintable(summary));
        QVERIFY2(summary.contains(QStringLiteral("Both plans save the same values")), qPrintable(summary));
    }

    /// The Compare tab behind the Inspector's is not on screen, though Qt calls its widget
    /// visible: a comparison made then must not recolour the canvas (it did, unasked, on opening).
    void aComparisonBehindAnotherTabLeavesTheCanvasAlone()
    {
        MainWindow w;
        QVERIFY(openAndWait(w, test::oraclePath("transformer_encoder_block.json")));
        ComparePanel* panel = w.comparePanel();
        QVERIFY(!panel->isShown());
        choose(panel->sideB(), PlanChoice::Kind::PyTorch);
        panel->compareNow();
        QTRY_VERIFY_WITH_TIMEOUT(panel->pair() && idle(w), kTimeoutMs);
        QCOMPARE(panel->pair()->error, QString());
        QVERIFY(!w.canvas()->scene()->state().comparingPlans());
    }

    /// Showing the dock asks for a comparison after a short pause: the window counts as busy until
    /// it has arrived, so that a headless screenshot (--dock compare) waits for it (it showed an
    /// empty dock and an uncoloured canvas).
    void aShownDockIsBusyUntilItsComparisonArrives()
    {
        MainWindow w;
        QVERIFY(openAndWait(w, test::oraclePath("transformer_encoder_block.json")));
        ComparePanel* panel = w.comparePanel();
        QVERIFY(!panel->pair());
        showDock(w);
        QTRY_VERIFY_WITH_TIMEOUT(panel->isShown(), kTimeoutMs);
        QVERIFY(panel->isPending());
        QVERIFY(w.isBusy());
        QTRY_VERIFY_WITH_TIMEOUT(idle(w), kTimeoutMs);
        QVERIFY2(panel->pair(), "idle before the comparison arrived");
        QVERIFY(w.canvas()->scene()->state().comparingPlans());
    }

    void groupsCountTheirDifferences()
    {
        MainWindow w;
        w.setInteractive(false);
        w.show();
        w.openFile(test::oraclePath("gpt_n8.json")); // opens as groups of blocks
        QTRY_VERIFY_WITH_TIMEOUT(idle(w), kTimeoutMs);
        QVERIFY(!w.document()->graph()->groups.empty());
        showDock(w);
        ComparePanel* panel = w.comparePanel();
        choose(panel->sideA(), PlanChoice::Kind::Current);
        choose(panel->sideB(), PlanChoice::Kind::OtherRules);
        panel->compareNow();
        QTRY_VERIFY_WITH_TIMEOUT(
            panel->pair() && panel->pair()->labelB.contains(QStringLiteral("rule")) && idle(w), kTimeoutMs);
        QCOMPARE(panel->pair()->error, QString());
        const PlanComparison& c = panel->pair()->comparison;
        QVERIFY2(!c.onlyInA.empty() || !c.onlyInB.empty(),
            "torch-1.13 and the newest rules save different values here");
        const CanvasState& state = w.canvas()->scene()->state();
        int onlyA = 0, onlyB = 0;
        const GroupTree& tree = w.document()->graph()->groups;
        for (std::size_t g = 0; g < tree.groups.size(); ++g) {
            if (tree.groups[g].parent >= 0)
                continue; // top-level groups partition the grouped nodes
            onlyA += state.groupStats[g].onlyA;
            onlyB += state.groupStats[g].onlyB;
        }
        std::set<NodeId> grouped;
        for (std::size_t g = 0; g < tree.groups.size(); ++g) {
            if (tree.groups[g].parent < 0)
                grouped.insert(tree.groups[g].members.begin(), tree.groups[g].members.end());
        }
        int expectedA = 0, expectedB = 0;
        for (NodeId n : c.onlyInA)
            expectedA += grouped.count(n) ? 1 : 0;
        for (NodeId n : c.onlyInB)
            expectedB += grouped.count(n) ? 1 : 0;
        QCOMPARE(onlyA, expectedA);
        QCOMPARE(onlyB, expectedB);
    }
};

QTEST_MAIN(TestComparePanel)
#include "tst_comparepanel.moc"
