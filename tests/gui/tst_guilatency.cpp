// SPDX-License-Identifier: MIT
// The GUI never blocks: the real main window opens the largest sample and gpt_n96 (17k nodes),
// lays them out, expands everything, re-partitions on tags, switches to the memory budget (with
// its sweep), moves the budget slider, picks a plan on the trade-off plot, and shows the memory
// timeline and the plan comparison, while a probe measures the longest stretch the GUI thread
// stays away from its event loop. Each phase's worst must stay under 100 ms, in the best of up to
// three walks through. A generated graph of 90k nodes (200k items on the canvas expanded) is
// expanded and collapsed, also mid-way.
#include "analysis/plan_analyst.h"
#include "analysis/plan_profiler.h"
#include "canvas/graph_canvas.h"
#include "canvas/graph_scene.h"
#include "canvas/overview_map.h"
#include "devices/devices_dock.h"
#include "document/graph_document.h"
#include "document/graph_opener.h"
#include "document/node_selection.h"
#include "gui_test_support.h"
#include "main_window_test_support.h"
#include "model/budget_outcome.h"
#include "panels/budget_controls.h"
#include "panels/compare_panel.h"
#include "panels/pareto_panel.h"
#include "panels/partition_panel.h"
#include "panels/plan_choice_editor.h"
#include "panels/timeline_panel.h"
#include "plots/pareto_plot.h"
#include "plots/timeline_plot.h"
#include "window/gui_stall_probe.h"
#include "window/main_window.h"
#include "window/tag_actions.h"

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QEventLoop>
#include <QProcess>
#include <QSlider>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>
#include <qcustomplot.h>

#include <algorithm>
#include <functional>

using namespace remat;
using namespace remat::ui;
using namespace remat::ui::test;

namespace {

/// What the user may wait for at most before the window reacts.
constexpr double kMaxStallMs = 100;

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
/// AddressSanitizer makes the GUI thread's allocations several times slower (a 16 ms tag takes
/// about 120 ms; the sweep of gpt_n96 may take over a minute). The 100 ms bound is for the build
/// users run; an instrumented build gets 4 times the bound and the timeouts, and still catches
/// stalls of seconds, such as the overview map's re-render this test was written for.
constexpr double kInstrumentedSlowdown = 4;
#else
constexpr double kInstrumentedSlowdown = 1;
#endif
/// The bound each phase's worst stall is checked against in this build.
constexpr double kStallBoundMs = kMaxStallMs * kInstrumentedSlowdown;

/// Runs the event loop, as the app does (no sleeps between checks), until `done` or the timeout.
bool runUntil(const std::function<bool()>& done, int timeoutMs = int(kTimeoutMs * kInstrumentedSlowdown))
{
    bool reached = done();
    if (reached)
        return true;
    QEventLoop loop;
    QTimer check;
    QObject::connect(&check, &QTimer::timeout, &loop, [&] {
        reached = done();
        if (reached)
            loop.quit();
    });
    check.start(5);
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    loop.exec();
    return reached;
}

/// Lets the event loop run for `ms`, as between a user's key presses.
void runFor(int ms)
{
    QEventLoop loop;
    QTimer::singleShot(ms, &loop, &QEventLoop::quit);
    loop.exec();
}

QString largestSample()
{
    const QFileInfoList samples = QDir(QStringLiteral(REMAT_SOURCE_DIR "/samples"))
                                      .entryInfoList({QStringLiteral("*.json")}, QDir::Files, QDir::Size);
    return samples.isEmpty() ? QString() : samples.first().absoluteFilePath();
}

QAction* actionNamed(const MainWindow& w, const QString& text)
{
    for (QAction* a : w.findChildren<QAction*>()) {
        if (a->text() == text)
            return a;
    }
    return nullptr;
}

QDockWidget* showDock(MainWindow& w, const char* name)
{
    auto* dock = w.findChild<QDockWidget*>(QLatin1String(name));
    if (dock) {
        dock->show();
        dock->raise();
    }
    return dock;
}

/// Saved call_function nodes of the current plan, largest first: tagging them changes the plan.
std::vector<NodeId> savedComputations(const MainWindow& w, std::size_t count)
{
    const LoadedGraphPtr graph = w.document()->graph();
    std::vector<NodeId> nodes;
    for (NodeId n : w.document()->outcome()->result->savedValues) {
        if (graph->graph.node(n).op == NodeOp::CallFunction)
            nodes.push_back(n);
    }
    std::stable_sort(nodes.begin(), nodes.end(),
        [&](NodeId a, NodeId b) { return graph->bytesOf(a) > graph->bytesOf(b); });
    nodes.resize(std::min(nodes.size(), count));
    return nodes;
}

/// What keeps the window busy, for failure messages.
QByteArray busyParts(const MainWindow& w)
{
    QStringList parts;
    if (w.opener()->isBusy())
        parts << QStringLiteral("opening");
    if (w.canvas()->isLayoutBusy())
        parts << QStringLiteral("layout");
    if (w.canvas()->hasPendingWork() && !w.canvas()->isLayoutBusy())
        parts << QStringLiteral("overview map");
    if (w.document()->isPartitioning())
        parts << QStringLiteral("partitioning");
    if (w.paretoPanel()->sweeper()->isRunning())
        parts << QStringLiteral("sweep");
    if (w.timelinePanel()->profiler()->isBusy())
        parts << QStringLiteral("timeline");
    if (w.comparePanel()->analyst()->isBusy())
        parts << QStringLiteral("plan analyst");
    if (w.devicesDock()->isBusy())
        parts << QStringLiteral("devices");
    return (QStringLiteral("busy: ") + parts.join(QLatin1String(", "))).toUtf8();
}

/// Pixels that are not (nearly) white: what the mini-map drew.
int inkedPixels(const QImage& image)
{
    int inked = 0;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x)
            inked += qGray(image.pixel(x, y)) < 235;
    }
    return inked;
}

bool swept(const MainWindow& w)
{
    const ParetoSnapshotPtr s = w.paretoPanel()->plot()->snapshot();
    return idle(w) && s && s->finished;
}

/// Items in the scene (unsorted: sorting 200k by stacking order would stall the probe's phase).
qsizetype itemsIn(const QGraphicsScene& scene)
{
    return scene.items(static_cast<Qt::SortOrder>(-1)).size();
}

double planBudget(const MainWindow& w)
{
    const PartitionOutcomePtr o = w.document()->outcome();
    return o && o->budget ? o->budget->plan->budget : -1;
}

} // namespace

class TestGuiLatency : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        test::isolate();
        if (kStallBoundMs != kMaxStallMs)
            qInfo("sanitizer build: each phase's bound is %.0f ms instead of %.0f ms", kStallBoundMs,
                kMaxStallMs);
    }

    void staysResponsive_data()
    {
        QTest::addColumn<QString>("source");
        QTest::addRow("largest sample") << largestSample();
        QTest::addRow("gpt_n96") << test::oraclePath("gpt_n96.json");
    }

    void staysResponsive()
    {
        QFETCH(QString, source);
        QVERIFY2(!source.isEmpty() && QFileInfo::exists(source),
            qPrintable(QStringLiteral("missing graph: ") + source));
        // Each phase's best of up to three walks through, each on a fresh window and copy. On a
        // shared VM the host can slow memory threefold for minutes, and waking a sleeping thread
        // takes 0.4-0.6 ms at p90 (docs/performance.md): Qt's raster engine hands every fill of 96
        // rows or more to the global thread pool and waits, so one repaint of gpt_small was seen
        // blocked 85 ms. A stall of ours shows in every walk; the host's rarely in three.
        constexpr int kWalks = 3;
        QList<GuiStallProbe::Phase> best;
        for (int walk = 1; walk <= kWalks; ++walk) {
            QList<GuiStallProbe::Phase> phases;
            walkThrough(source, phases);
            if (QTest::currentTestFailed())
                return;
            qInfo("walk %d of at most %d:", walk, kWalks);
            for (const GuiStallProbe::Phase& phase : phases)
                qInfo("  %s", qPrintable(GuiStallProbe::describe(phase)));
            for (qsizetype i = 0; i < phases.size(); ++i) {
                if (i >= best.size())
                    best.push_back(phases[i]);
                else if (phases[i].worst.busyMs() < best[i].worst.busyMs())
                    best[i] = phases[i];
            }
            if (std::all_of(best.begin(), best.end(),
                    [](const GuiStallProbe::Phase& p) { return p.worst.busyMs() < kStallBoundMs; }))
                break;
        }
        if (kInstrumentedSlowdown != 1)
            qInfo("sanitizer build: each phase's bound is %.0f ms instead of %.0f ms", kStallBoundMs,
                kMaxStallMs);
        for (const GuiStallProbe::Phase& phase : best)
            QVERIFY2(phase.worst.busyMs() < kStallBoundMs,
                qPrintable(QStringLiteral("in each of %1 walks; the best: ").arg(kWalks)
                    + GuiStallProbe::describe(phase)));
    }

private:
    /// Opens `source` (a fresh copy) in a new window and goes through every phase under a probe.
    void walkThrough(const QString& source, QList<GuiStallProbe::Phase>& phases)
    {
        QTemporaryDir dir;
        const QString path = test::copyInto(dir, source);

        MainWindow w;
        w.setInteractive(false);
        w.show();
        w.canvas()->setOverviewVisible(true);
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        GuiStallProbe probe;

        probe.beginPhase(QStringLiteral("open and lay out"));
        w.openFile(path);
        QVERIFY2(runUntil([&] { return idle(w); }), busyParts(w));

        probe.beginPhase(QStringLiteral("expand all"));
        QAction* expandAll = actionNamed(w, QStringLiteral("E&xpand All Groups"));
        QVERIFY(expandAll);
        QVERIFY2(expandAll->isEnabled(), "both graphs open as a summary of groups");
        expandAll->trigger();
        QVERIFY2(runUntil([&] { return idle(w); }), busyParts(w));
        const LoadedGraphPtr graph = w.document()->graph();
        for (std::size_t i = 0; i < graph->size(); ++i) {
            const auto n = static_cast<NodeId>(i);
            const BoxItem* shown = w.canvas()->scene()->boxForNode(n);
            // Every node is its own box now (the output node has none).
            QVERIFY(graph->region(n) == Region::Output || (shown && shown->type() == NodeItemType));
        }

        // A user selects a saved node on the canvas and presses R: the plan is made again live.
        const std::vector<NodeId> nodes = savedComputations(w, 30);
        QVERIFY(nodes.size() >= 4);
        QAction* mustRecompute = w.tagActions()->actions()[2];
        probe.beginPhase(QStringLiteral("tag one node"));
        BoxItem* box = w.canvas()->scene()->boxForNode(nodes.front());
        QVERIFY(box);
        box->setSelected(true);
        mustRecompute->trigger();
        QVERIFY2(
            runUntil([&] { return idle(w) && !w.document()->outcome()->result->isSaved(nodes.front()); }),
            busyParts(w));

        // Then tags more, as fast as one presses keys: every tag re-partitions and recolours.
        probe.beginPhase(QStringLiteral("tag nodes quickly"));
        for (std::size_t i = 1; i < nodes.size(); ++i) {
            w.selection()->selectNode(nodes[i], NodeSelection::Origin::Canvas);
            mustRecompute->trigger();
            runFor(25);
        }
        QVERIFY2(runUntil([&] { return idle(w); }), busyParts(w));
        QCOMPARE(w.document()->userOverrides().size(), nodes.size());

        probe.beginPhase(QStringLiteral("budget partitioner and sweep"));
        QComboBox* partitioner = w.partitionPanel()->partitionerBox();
        partitioner->setCurrentIndex(partitioner->findData(QStringLiteral("budget")));
        QVERIFY2(runUntil([&] { return swept(w); }), busyParts(w));

        probe.beginPhase(QStringLiteral("budget slider"));
        QSlider* slider = w.partitionPanel()->budgetControls()->slider();
        for (int value : {45, 40, 35, 30, 25, 20}) {
            slider->setValue(value);
            runFor(30);
        }
        QVERIFY2(runUntil([&] { return idle(w) && planBudget(w) == 0.2; }), busyParts(w));

        probe.beginPhase(QStringLiteral("pick a plan on the trade-off plot"));
        ParetoPlot* plot = w.paretoPanel()->plot();
        const int low = plot->lowestPeakPoint();
        QVERIFY(low >= 0);
        const QPoint at = plot->pixelOf(low, false).toPoint();
        const int picked = plot->pointAt(at); // plans may share a pixel: any of them
        QVERIFY(picked >= 0);
        const double target = plot->snapshot()->result.points[static_cast<std::size_t>(picked)].budget;
        QTest::mouseClick(plot->plot(), Qt::LeftButton, {}, at);
        QVERIFY2(runUntil([&] { return idle(w) && planBudget(w) == target; }), busyParts(w));

        probe.beginPhase(QStringLiteral("memory timeline"));
        showDock(w, "TimelineDock");
        TimelinePanel* timeline = w.timelinePanel();
        QVERIFY2(runUntil([&] {
            return idle(w) && timeline->plot()->profile() && timeline->plot()->profile()->ok();
        }),
            busyParts(w));
        timeline->showStep(timeline->plot()->profile()->profile.peakStep);
        QVERIFY2(
            runUntil([&] { return idle(w) && timeline->liveList()->model()->rowCount() > 0; }), busyParts(w));

        auto* overview = w.canvas()->findChild<OverviewMap*>();
        QVERIFY(overview && overview->isVisible());
        const QImage decisions = overview->grab().toImage();
        QVERIFY2(inkedPixels(decisions) > 500, "the mini-map shows the picture");

        probe.beginPhase(QStringLiteral("compare plans"));
        QDockWidget* compareDock = showDock(w, "CompareDock");
        QVERIFY(compareDock);
        ComparePanel* compare = w.comparePanel();
        PlanChoice other;
        other.kind = PlanChoice::Kind::Budget;
        other.budget = 0.05;
        compare->sideB()->setChoice(other);
        compare->compareNow();
        QVERIFY2(runUntil([&] {
            return idle(w) && compare->pair() && compare->pair()->labelB.contains(QStringLiteral("0.05"));
        }),
            busyParts(w));
        QVERIFY(w.canvas()->scene()->state().comparingPlans());
        QVERIFY2(overview->grab().toImage() != decisions, "the mini-map follows the recolour");
        compareDock->hide(); // the canvas takes its decision colours back
        QVERIFY2(runUntil([&] { return idle(w); }), busyParts(w));
        probe.endPhase();

        qInfo("%s: %zu nodes, %zu boxes on the canvas%s", qPrintable(QFileInfo(source).fileName()),
            w.document()->graph()->size(), w.canvas()->scene()->boxCount(),
            probe.seesRunQueue() ? "" : " (run-queue delay unknown: every stall counts as busy)");
        phases = probe.phases();
    }

private Q_SLOTS:

    /// Expand All puts every item of a huge graph on the canvas: they join the scene over many
    /// turns (added at once, 200k items kept the GUI thread 120 ms or more), and a replaced picture's
    /// items leave the same way. Meanwhile a node picked elsewhere, a re-partition, a Collapse
    /// All or closing the window find the canvas consistent.
    void expandsHugeGraphInTurns()
    {
        const QString python = QStandardPaths::findExecutable(QStringLiteral("python3"));
        QVERIFY2(!python.isEmpty(), "python3 (no torch needed) writes the graph");
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("deep_mlp_5000.json"));
        QProcess make;
        make.start(python,
            {QStringLiteral(REMAT_SOURCE_DIR "/tests/gui/make_deep_mlp.py"), QStringLiteral("--layers"),
                QStringLiteral("5000"), path});
        QVERIFY2(make.waitForFinished(kTimeoutMs) && make.exitCode() == 0,
            make.readAllStandardError().constData());

        MainWindow w;
        w.setInteractive(false);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.openFile(path);
        QVERIFY2(runUntil([&] { return idle(w); }), busyParts(w));
        GraphScene* scene = w.canvas()->scene();
        const LoadedGraphPtr graph = w.document()->graph();
        const NodeId picked = savedComputations(w, 1).at(0);
        GuiStallProbe probe;

        probe.beginPhase(QStringLiteral("expand all, pick and tag a node mid-way"));
        w.canvas()->expandAll();
        QVERIFY2(runUntil([&] { return scene->isFilling(); }), busyParts(w));
        w.selection()->selectNode(picked, NodeSelection::Origin::Search);
        w.document()->tagNodes({picked}, CheckpointPolicy::MustRecompute);
        QVERIFY2(runUntil([&] { return idle(w) && !w.document()->outcome()->result->isSaved(picked); }),
            busyParts(w));
        const int turns = scene->fillTurns();
        QVERIFY2(turns > 1, "the items joined the scene over several turns");
        for (std::size_t i = 0; i < graph->size(); ++i) {
            const auto n = static_cast<NodeId>(i);
            const BoxItem* shown = scene->boxForNode(n);
            QVERIFY(graph->region(n) == Region::Output
                || (shown && shown->type() == NodeItemType && shown->scene() == scene));
        }
        QVERIFY2(scene->boxForNode(picked)->isSelected(), "the selection is on the finished picture");
        QCOMPARE(w.selection()->nodes(), std::vector<NodeId> {picked});
        const auto expandedItems = itemsIn(*scene);

        probe.beginPhase(QStringLiteral("collapse all"));
        w.canvas()->collapseAll();
        QVERIFY2(runUntil([&] { return idle(w); }), busyParts(w));
        const auto collapsedItems = itemsIn(*scene);
        QVERIFY2(collapsedItems * 100 < expandedItems, "the expanded picture's items are gone");

        probe.beginPhase(QStringLiteral("expand all, collapse all mid-way"));
        w.canvas()->expandAll();
        QVERIFY2(runUntil([&] { return scene->isFilling(); }), busyParts(w));
        w.canvas()->collapseAll();
        QVERIFY2(runUntil([&] { return idle(w); }), busyParts(w));
        QCOMPARE(itemsIn(*scene), collapsedItems);
        probe.endPhase();

        qInfo("%zu nodes: %lld items expanded, added in %d turns", graph->size(),
            static_cast<long long>(expandedItems), turns);
        for (const GuiStallProbe::Phase& phase : probe.phases())
            qInfo("  %s", qPrintable(GuiStallProbe::describe(phase)));
        for (const GuiStallProbe::Phase& phase : probe.phases())
            QVERIFY2(phase.worst.busyMs() < kStallBoundMs, qPrintable(GuiStallProbe::describe(phase)));

        // The window closes while a picture is added (its items and the rest go with it).
        w.canvas()->expandAll();
        QVERIFY2(runUntil([&] { return scene->isFilling(); }), busyParts(w));
    }
};

QTEST_MAIN(TestGuiLatency)
#include "tst_guilatency.moc"
