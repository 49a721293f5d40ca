// SPDX-License-Identifier: MIT
// The Memory Timeline dock: the current plan's timeline is the core's simulation, its list opens on
// the tensors alive at the peak, a click on a step lists and selects the tensors alive there, a second plan
// overlays, and it exports.
#include "budget/budget_session.h"
#include "budget/plan_from_saved.h"
#include "document/node_selection.h"
#include "gui_test_support.h"
#include "main_window_test_support.h"
#include "model/budget_outcome.h"
#include "panels/live_tensor_model.h"
#include "panels/timeline_panel.h"
#include "plots/plot_export.h"
#include "plots/timeline_plot.h"
#include "window/main_window.h"

#include <QFile>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>
#include <qcustomplot.h>

#include <optional>

using namespace remat;
using namespace remat::ui;
using namespace remat::ui::test;

namespace {

bool profiled(const MainWindow& w)
{
    const PlanProfilePtr p = w.timelinePanel()->plot()->profile();
    return idle(w) && p && p->ok();
}

/// The pixel box of the plot's text item that starts with `prefix`.
std::optional<QRectF> textBox(const TimelinePlot& plot, const QString& prefix)
{
    for (int i = 0; i < plot.plot()->itemCount(); ++i) {
        const auto* text = qobject_cast<QCPItemText*>(plot.plot()->item(i));
        if (text && text->text().startsWith(prefix))
            return QRectF(text->topLeft->pixelPosition(), text->bottomRight->pixelPosition()).normalized();
    }
    return std::nullopt;
}

/// Whether the peak's label, the phase labels beside the forward/backward boundary, and the
/// plot's top edge leave each other room.
bool labelsApart(const TimelinePlot& plot)
{
    const auto peak = textBox(plot, QStringLiteral("peak "));
    const auto forward = textBox(plot, QStringLiteral("forward"));
    const auto backward = textBox(plot, QStringLiteral(" \u25B8 backward"));
    const double top = plot.plot()->axisRect()->top();
    return peak && forward && backward && !peak->intersects(*forward) && !peak->intersects(*backward)
        && peak->top() >= top && forward->top() >= top;
}

} // namespace

class TestTimelinePanel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { test::isolate(); }

    void timelineIsTheCoresAndStepsListLiveTensors()
    {
        MainWindow w;
        w.setInteractive(false);
        w.show();
        w.openFile(test::samplePath("transformer_block.json"));
        QTRY_VERIFY_WITH_TIMEOUT(profiled(w), kTimeoutMs);
        const MemoryProfile& shown = w.timelinePanel()->plot()->profile()->profile;

        // The min-cut plan, re-extracted from its saved values under the newest rules, simulated.
        const LoadedGraphPtr graph = w.document()->graph();
        const BudgetSession session(graph->graph, w.document()->partitionOptions(), BudgetOptions {});
        std::vector<std::string> names;
        for (NodeId n : w.document()->outcome()->result->savedValues)
            names.push_back(graph->graph.node(n).name);
        const BudgetedPlan expected = planFromSavedNames(session, names, "test");
        QCOMPARE(shown.peakBytes, expected.memory->peakBytes);
        QCOMPARE(shown.peakStep, expected.memory->peakStep);
        QCOMPARE(shown.timeline.size(), expected.memory->timeline.size());
        QCOMPARE(shown.forwardSteps, expected.memory->forwardSteps);

        // The list opens on what is alive at the peak, and leaves the canvas's selection alone.
        TimelinePanel* panel = w.timelinePanel();
        const LiveTensorModel* live = panel->liveTensors();
        QCOMPARE(panel->liveList()->model(), live);
        const auto title = [live] { return live->headerData(0, Qt::Horizontal).toString(); };
        QTRY_COMPARE_WITH_TIMEOUT(
            live->rowCount(), static_cast<int>(expected.memory->liveAtPeak.size()), kTimeoutMs);
        QCOMPARE(title(), QStringLiteral("%1 live at the peak").arg(expected.memory->liveAtPeak.size()));
        QVERIFY(w.selection()->nodes().empty());

        // Clicking the peak step lists what is alive there, largest first, and selects it.
        panel->showStep(shown.peakStep);
        QTRY_VERIFY_WITH_TIMEOUT(!w.selection()->nodes().empty(), kTimeoutMs);
        QVERIFY(title().endsWith(QStringLiteral("live at step %1").arg(shown.peakStep)));
        QCOMPARE(live->rowCount(), static_cast<int>(expected.memory->liveAtPeak.size()));
        std::int64_t listed = 0;
        for (int i = 0; i < live->rowCount(); ++i) {
            const qlonglong bytes
                = live->index(i, LiveTensorModel::BytesColumn).data(LiveTensorModel::SortRole).toLongLong();
            QVERIFY2(i == 0 || bytes <= live->index(i - 1, 1).data(LiveTensorModel::SortRole).toLongLong(),
                "largest first");
            listed += bytes;
        }
        std::int64_t alive = 0;
        for (const LiveTensor& t : expected.memory->liveAtPeak)
            alive += t.bytes;
        QCOMPARE(listed, alive);
        QCOMPARE(static_cast<int>(w.selection()->nodes().size()), live->rowCount());
        QVERIFY(panel->plot()->describeStep(shown.peakStep).contains(graph->label(shown.peakNode).name));

        // A second plan's total overlays the stack.
        auto other = std::make_shared<PartitionOutcome>();
        other->result = std::make_shared<const PartitionResult>(session.plan(0.0).result);
        panel->setComparison(other, QStringLiteral("budget 0"));
        QTRY_VERIFY_WITH_TIMEOUT(
            panel->plot()->plot()->graphCount() == 7, kTimeoutMs); // 6 categories + the line
        // Budget 0 recomputes more, so its timeline is longer: the axis shows B's line to its end
        // (it stopped at A's last step).
        QCustomPlot* custom = panel->plot()->plot();
        const int otherSteps = custom->graph(custom->graphCount() - 1)->dataCount();
        QVERIFY(otherSteps > static_cast<int>(shown.timeline.size()));
        QVERIFY(custom->xAxis->range().upper >= otherSteps - 1);

        QTemporaryDir dir;
        for (const char* name : {"t.png", "t.svg", "t.pdf", "t.csv"})
            QCOMPARE(panel->exportTo(dir.filePath(QLatin1String(name))), QString());
        QVERIFY(QSvgRenderer(dir.filePath(QStringLiteral("t.svg"))).isValid());
        QFile csv(dir.filePath(QStringLiteral("t.csv")));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        QCOMPARE(csv.readAll().count('\n'), static_cast<qsizetype>(shown.timeline.size()) + 1);
    }

    /// Dynamic shapes: the plan is re-extracted with the SymInts it passes to the backward. From its
    /// tensors alone it failed: "the backward graph must output 'getitem_1', but it cannot be computed".
    void aDynamicShapePlanIsSimulated()
    {
        MainWindow w;
        w.setInteractive(false);
        w.show();
        w.openFile(QStringLiteral(REMAT_TEST_DATA_DIR "/torch_trace/dynamic.log"), QStringLiteral("0/1"));
        QTRY_VERIFY_WITH_TIMEOUT(idle(w) && w.timelinePanel()->plot()->profile(), kTimeoutMs);
        const PlanProfilePtr profile = w.timelinePanel()->plot()->profile();
        QVERIFY2(profile->ok(), qPrintable(profile->error));
        QCOMPARE(profile->profile.forwardSteps, 26);
        QCOMPARE(profile->profile.timeline.size(), std::size_t(26 + 42));
        QCOMPARE(profile->profile.peakBytes, std::int64_t(8244)); // 8.05 KiB, as `memory` prints
    }

    /// Before a plan arrives, or when it cannot be simulated, the empty timeline keeps its axes
    /// across the widget and names the categories: its axes were squeezed into 50 pixels on the
    /// left (the empty legend under them, a few pixels wide, capped their column).
    void anEmptyTimelineSpansItsWidget()
    {
        TimelinePlot plot;
        plot.resize(1200, 300);
        plot.show();
        QVERIFY(QTest::qWaitForWindowExposed(&plot));
        QTRY_VERIFY2(plot.plot()->axisRect()->width() > 1000,
            qPrintable(QString::number(plot.plot()->axisRect()->width())));
        QCOMPARE(plot.plot()->legend->itemCount(), 6);
        plot.clear();
        QTRY_VERIFY(plot.plot()->axisRect()->width() > 1000);
        QCOMPARE(plot.plot()->graphCount(), 6);
        QCOMPARE(plot.plot()->graph(0)->dataCount(), 0);
    }

    /// The peak usually comes right after the forward/backward boundary (transformer_block: step
    /// 88, boundary after 81): in a short dock its label ran over the phase label "forward ◂".
    void peakLabelLeavesThePhaseLabelsRoom()
    {
        MainWindow w;
        w.setInteractive(false);
        w.show();
        w.openFile(test::samplePath("transformer_block.json"));
        QTRY_VERIFY_WITH_TIMEOUT(profiled(w), kTimeoutMs);
        const LoadedGraphPtr graph = w.document()->graph();
        const PlanProfilePtr profile = w.timelinePanel()->plot()->profile();
        QVERIFY(profile->profile.peakStep >= profile->profile.forwardSteps);

        TimelinePlot plot;
        plot.setProfile(std::shared_ptr<const JointGraph>(graph, &graph->graph), profile);
        plot.setComparison(profile); // a seventh legend entry: the grid has an empty cell
        plot.show();
        for (const QSize size : {QSize(420, 200), QSize(900, 240), QSize(1400, 700)}) {
            plot.resize(size);
            // The legend under the plot takes as many columns as fit in the width, and no more.
            QTRY_VERIFY_WITH_TIMEOUT(plot.plot()->legend->outerRect().width() > 0, kTimeoutMs);
            QVERIFY(plot.plot()->legend->outerRect().right() <= plot.plot()->width());
            QCOMPARE(plot.plot()->legend->wrap() > 2, size.width() >= 900);
            QTRY_VERIFY2_WITH_TIMEOUT(labelsApart(plot),
                qPrintable(QStringLiteral("%1x%2").arg(size.width()).arg(size.height())), kTimeoutMs);
        }
    }

    /// `memory --plot` exports a plot that was never shown: its legend took one column (six rows
    /// under the plot of a 1100-pixel picture), wrapped for the widget's width, not the picture's.
    void anExportLaysTheLegendOutAtThePicturesWidth()
    {
        MainWindow w;
        QVERIFY(openAndWait(w, test::samplePath("transformer_block.json")));
        QTRY_VERIFY_WITH_TIMEOUT(profiled(w), kTimeoutMs);
        const LoadedGraphPtr graph = w.document()->graph();
        TimelinePlot plot; // never shown, as in the command line's export
        plot.setProfile(
            std::shared_ptr<const JointGraph>(graph, &graph->graph), w.timelinePanel()->plot()->profile());
        const QSize picture(1100, 680);
        QList<int> wraps;
        QList<QRect> legends;
        connect(plot.plot(), &QCustomPlot::afterLayout, this, [&] {
            wraps << plot.plot()->legend->wrap();
            legends << plot.plot()->legend->outerRect();
        });
        QTemporaryDir dir;
        QCOMPARE(savePlot(plot.plot(), dir.filePath(QStringLiteral("timeline.png")), picture), QString());
        QVERIFY(!wraps.isEmpty());
        // The picture's own layout, the last: its legend in one row of six, inside the picture.
        QCOMPARE(wraps.last(), 6);
        QVERIFY(legends.last().right() <= picture.width());
        QVERIFY(legends.last().height() < 40);
    }
};

QTEST_MAIN(TestTimelinePanel)
#include "tst_timelinepanel.moc"
