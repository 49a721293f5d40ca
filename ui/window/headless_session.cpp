// SPDX-License-Identifier: MIT
#include "window/headless_session.h"
#include "window/timing_math.h"

#include "analysis/recording_rules.h"
#include "canvas/graph_canvas.h"
#include "canvas/graph_scene.h"
#include "canvas/graph_view.h"
#include "document/graph_document.h"
#include "document/node_selection.h"
#include "document/plan_export.h"
#include "explain/plan_file_reader.h"
#include "explain/plan_run.h"
#include "model/atomic_write.h"
#include "model/policy_names.h"
#include "window/export_actions.h"
#include "window/gui_stall_probe.h"
#include "window/main_window.h"
#include "window/process_memory.h"

#include <QApplication>
#include <QBuffer>
#include <QFileInfo>

#include <algorithm>
#include <cstdio>
#include <memory>

namespace remat::ui {
namespace {

constexpr int kDeadlineMs = 300'000;

} // namespace

HeadlessSession::HeadlessSession(MainWindow* window, GuiOptions options, QObject* parent)
    : QObject(parent)
    , m_window(window)
    , m_options(std::move(options))
{
    m_poll.setInterval(10);
    connect(&m_poll, &QTimer::timeout, this, [this] {
        if (m_window->isBusy())
            return;
        m_poll.stop();
        if (m_steps.empty()) {
            Q_EMIT finished(0);
            return;
        }
        Step step = std::move(m_steps.front());
        m_steps.pop_front();
        step();
        if (!m_failed)
            next();
    });
    m_deadline.setSingleShot(true);
    m_deadline.setInterval(kDeadlineMs);
    connect(&m_deadline, &QTimer::timeout, this,
        [this] { fail(QStringLiteral("timed out waiting for the window")); });
    connect(m_window, &MainWindow::openFailed, this, [this](const QString& message) { fail(message); });
}

void HeadlessSession::start()
{
    m_deadline.start();
    m_clock.start();
    if (m_options.measure)
        queueMeasureSteps();
    else
        queueScreenshotSteps();
    next();
}

void HeadlessSession::next()
{
    m_poll.start();
}

void HeadlessSession::fail(const QString& message)
{
    if (m_failed)
        return;
    m_failed = true;
    m_poll.stop();
    std::fprintf(stderr, "remat-explorer: %s\n", qPrintable(message));
    Q_EMIT finished(1);
}

void HeadlessSession::queueScreenshotSteps()
{
    const QString path = m_options.graph.isEmpty() ? MainWindow::bundledSamplePath() : m_options.graph;
    then([this, path] { m_window->openFile(path, m_options.traceGraph); });
    then([this] {
        for (const QString& spec : m_options.tags) {
            const QString name = spec.section(QLatin1Char('='), 0, 0);
            const auto policy = parsePolicy(spec.section(QLatin1Char('='), 1));
            const NodeId n = m_window->document()->graph()->graph.find(name.toStdString());
            if (n == kNoNode || !policy) {
                fail(QStringLiteral("--tag %1: no such node or policy").arg(spec));
                return;
            }
            m_window->document()->tagNodes(
                {n}, *policy == CheckpointPolicy::None ? std::nullopt : std::optional(*policy));
        }
        applyPartitionerOptions();
    });
    if (!m_options.plan.isEmpty())
        then([this] { showPlanFile(); });
    if (!m_options.expand.isEmpty())
        then([this] { expandAsAsked(); });
    if (!m_options.select.isEmpty()) {
        then([this] {
            const NodeId n = m_window->document()->graph()->graph.find(m_options.select.toStdString());
            if (n == kNoNode) {
                fail(QStringLiteral("--select %1: no such node").arg(m_options.select));
                return;
            }
            m_window->selection()->selectNode(n, NodeSelection::Origin::Search);
        });
    }
    then([this] {
        GraphView* view = m_window->canvas()->view();
        if (m_options.zoom == QLatin1String("fit"))
            view->fitToWindow();
        else if (!m_options.zoom.isEmpty())
            view->setZoom(m_options.zoom.toDouble());
        if (!m_options.select.isEmpty()) {
            if (BoxItem* box = m_window->canvas()->scene()->boxForNode(m_window->selection()->currentNode()))
                view->centerOn(box->box().center());
        }
    });
    queueReviewSteps();
    queueExportSteps();
    if (m_options.screenshot.isEmpty())
        return;
    then([this] {
        QApplication::processEvents();
        const QPixmap picture = (m_shotWidget ? m_shotWidget : m_window)->grab();
        // Encoded in memory, then written atomically: a killed run never leaves half a picture.
        QByteArray bytes;
        QBuffer buffer(&bytes);
        buffer.open(QIODevice::WriteOnly);
        const QByteArray format = QFileInfo(m_options.screenshot).suffix().toLatin1();
        if (!picture.save(&buffer, format.isEmpty() ? "PNG" : format.constData())) {
            fail(QStringLiteral("%1: cannot encode the picture as %2")
                     .arg(m_options.screenshot, QString::fromLatin1(format)));
            return;
        }
        if (const QString error = writeFileAtomic(m_options.screenshot, bytes); !error.isEmpty()) {
            fail(error);
            return;
        }
        std::printf(
            "wrote %s (%dx%d)\n", qPrintable(m_options.screenshot), picture.width(), picture.height());
    });
}

void HeadlessSession::expandAsAsked()
{
    if (m_options.expand == QLatin1String("all")) {
        m_window->canvas()->expandAll();
        return;
    }
    const auto& groups = m_window->document()->graph()->groups.groups;
    for (std::size_t g = 0; g < groups.size(); ++g) {
        if (groups[g].label == m_options.expand) {
            // Its enclosing ranges first, so that the group itself is on the canvas.
            for (int p = groups[g].parent; p >= 0; p = groups[static_cast<std::size_t>(p)].parent)
                m_window->canvas()->setExpanded(p, true);
            m_window->canvas()->setExpanded(static_cast<int>(g), true);
            return;
        }
    }
    fail(QStringLiteral("--expand %1: no group with that label").arg(m_options.expand));
}

void HeadlessSession::timeNextPicture(std::shared_ptr<QElapsedTimer> start, std::shared_ptr<double> shown)
{
    auto conn = std::make_shared<QMetaObject::Connection>();
    *conn = connect(m_window->canvas(), &GraphCanvas::pictureReady, this, [=, this] {
        disconnect(*conn);
        m_window->canvas()->view()->viewport()->repaint();
        *shown = ms(start->nsecsElapsed());
    });
}

void HeadlessSession::measureExpand()
{
    // From the request to the last item of the new picture on the canvas, painted.
    auto t0 = std::make_shared<QElapsedTimer>();
    auto shown = std::make_shared<double>(-1);
    then([=, this] {
        timeNextPicture(t0, shown);
        t0->start();
        expandAsAsked();
    });
    then([=, this] {
        std::printf("  %-26s %8.1f ms (%zu boxes now)\n",
            qPrintable(QStringLiteral("--expand ") + m_options.expand), *shown,
            m_window->canvas()->scene()->boxCount());
        printPeakMemory(m_window->document()->graph()->size());
    });
}

void HeadlessSession::applyPartitionerOptions()
{
    GraphDocument* doc = m_window->document();
    // Budget options imply the budget partitioner (the command line rejects them with another one).
    const bool budgetOptions = m_options.budget || !m_options.solver.isEmpty()
        || !m_options.estimator.isEmpty() || !m_options.device.isEmpty();
    const bool budget = m_options.partitioner == QLatin1String("budget")
        || (m_options.partitioner.isEmpty() && (budgetOptions || doc->budgetMode()));
    PartitionerKind kind = doc->partitioner();
    if (!budget && !m_options.partitioner.isEmpty())
        kind = parsePartitioner(m_options.partitioner.toStdString()).value_or(kind);
    const RuleSet rules = m_options.rules.isEmpty()
        ? doc->rules()
        : parseRuleSet(m_options.rules.toStdString()).value_or(doc->rules());
    BudgetSettings settings = doc->budgetSettings();
    if (m_options.budget)
        settings.budget = *m_options.budget;
    if (!m_options.solver.isEmpty())
        settings.solver = parseSolver(m_options.solver.toStdString()).value_or(settings.solver);
    if (!m_options.estimator.isEmpty())
        settings.estimator = parseEstimator(m_options.estimator.toStdString()).value_or(settings.estimator);
    if (!m_options.device.isEmpty()) {
        settings.device = m_options.device;
        if (m_options.estimator.isEmpty())
            settings.estimator
                = RuntimeEstimatorKind::Roofline; // as the command line: --device implies roofline
    }
    doc->setBudgetSettings(settings);
    if (m_options.activationOffloading)
        doc->setActivationOffloading(true);
    doc->setPartitionSettings(kind, rules, doc->compiler(), budget);
    // After the rules: the replay applies under torch-2.14's. "auto" keeps what the file says.
    const auto replay = parseJointPassReplay(m_options.inductorPasses.toStdString());
    if (replay && *replay != JointPassReplay::Auto)
        doc->setInductorJointPasses(*replay == JointPassReplay::On);
}

void HeadlessSession::showPlanFile()
{
    GraphDocument* doc = m_window->document();
    const LoadedGraphPtr graph = doc->graph();
    try {
        const PlanRunner runner(graph->graph, BudgetOptions {});
        auto outcome = std::make_shared<PartitionOutcome>();
        outcome->options = doc->partitionOptions();
        outcome->result = std::make_shared<const PartitionResult>(
            readPlanResult(runner, m_options.plan.toStdString(), outcome->options));
        describePartition(*outcome, *graph);
        doc->showPlan(std::move(outcome));
    } catch (const std::exception& e) {
        fail(QString::fromUtf8(e.what()));
    }
}

void HeadlessSession::queueExportSteps()
{
    ExportActions* exports = m_window->exportActions();
    // A failed partition fails the run: an export should never quietly write nothing.
    if (!m_options.exportPlan.isEmpty() || !m_options.exportScript.isEmpty()) {
        then([this] {
            const PartitionOutcomePtr outcome = m_window->document()->outcome();
            if (outcome && !outcome->ok())
                fail(outcome->error);
        });
    }
    if (!m_options.exportPlan.isEmpty()) {
        then([this, exports] {
            if (const QString error = exports->exportPlan(m_options.exportPlan); !error.isEmpty())
                fail(error);
            else
                std::printf("wrote %s\n", qPrintable(m_options.exportPlan));
        });
    }
    if (!m_options.exportScript.isEmpty()) {
        then([this, exports] {
            const QString tools = m_options.tools.isEmpty() ? defaultToolsDir() : m_options.tools;
            if (tools.isEmpty()) {
                fail(QStringLiteral("--export-script: cannot find apply_plan.py; give --tools DIR"));
                return;
            }
            QString plan = m_options.exportPlan;
            if (plan.isEmpty()) {
                plan = planPathForScript(m_options.exportScript);
                // A plan file the user did not name is never replaced behind their back.
                if (QFileInfo::exists(plan)) {
                    fail(QStringLiteral("--export-script: %1 exists; name the plan file with --export-plan "
                                        "(the same path replaces it)")
                             .arg(plan));
                    return;
                }
            }
            if (const QString error = exports->exportPlanAndScript(plan, m_options.exportScript, tools);
                !error.isEmpty()) {
                fail(error);
                return;
            }
            std::printf("wrote %s and %s; run it with:\n  %s\n", qPrintable(plan),
                qPrintable(m_options.exportScript), qPrintable(scriptCommand(m_options.exportScript)));
        });
    }
    if (!m_options.exportImage.isEmpty()) {
        then([this, exports] {
            if (const QString error = exports->exportImage(m_options.exportImage); !error.isEmpty())
                fail(error);
            else
                std::printf("wrote %s\n", qPrintable(m_options.exportImage));
        });
    }
}

void HeadlessSession::openAndMeasure(const QString& label)
{
    // Times from the open request to: parsed, partitioned, and the first picture painted.
    const QString path = m_options.graph.isEmpty() ? MainWindow::bundledSamplePath() : m_options.graph;
    auto t0 = std::make_shared<QElapsedTimer>();
    auto marks = std::make_shared<std::vector<std::pair<QString, double>>>();
    auto conns = std::make_shared<std::vector<QMetaObject::Connection>>();
    then([=, this] {
        t0->start();
        conns->push_back(connect(m_window, &MainWindow::graphOpened, this,
            [=] { marks->emplace_back(QStringLiteral("parsed"), ms(t0->nsecsElapsed())); }));
        conns->push_back(
            connect(m_window->document(), &GraphDocument::partitionChanged, this, [=](PartitionOutcomePtr o) {
                marks->emplace_back(QStringLiteral("partitioned"), ms(t0->nsecsElapsed()));
                marks->emplace_back(QStringLiteral("  (partitionGraph)"), o->seconds * 1000);
            }));
        conns->push_back(
            connect(m_window->canvas(), &GraphCanvas::pictureReady, this, [=, this](const CanvasTimings& t) {
                m_window->canvas()
                    ->view()
                    ->viewport()
                    ->repaint(); // paint now, to time the first picture honestly
                marks->emplace_back(QStringLiteral("first picture"), ms(t0->nsecsElapsed()));
                marks->emplace_back(
                    QStringLiteral("  (Graphviz%1)").arg(t.cached ? QStringLiteral(", cached") : QString()),
                    t.layoutSeconds * 1000);
                marks->emplace_back(QStringLiteral("  (items)"), t.buildSeconds * 1000);
            }));
        m_window->openFile(path, m_options.traceGraph);
    });
    then([=, this] {
        for (const auto& c : *conns)
            disconnect(c);
        const LoadedGraphPtr g = m_window->document()->graph();
        std::printf("%s: %s, %zu nodes, %zu boxes on the canvas\n", qPrintable(label),
            qPrintable(g->displayName), g->size(), m_window->canvas()->scene()->boxCount());
        std::printf("  %-26s %8.1f ms\n", "read + parse (core)", g->loadSeconds * 1000);
        std::printf("  %-26s %8.1f ms\n", "regions + groups", g->analysisSeconds * 1000);
        for (const auto& [what, value] : *marks)
            std::printf("  %-26s %8.1f ms\n", qPrintable(what), value);
        printPeakMemory(g->size());
    });
}

void HeadlessSession::printPeakMemory(std::size_t nodes)
{
    const double bytes = static_cast<double>(peakResidentBytes());
    std::printf("  %-26s %8.1f MB (%.0f bytes per node)\n", "peak RSS so far", bytes / 1e6,
        nodes ? bytes / static_cast<double>(nodes) : 0.0);
}

void HeadlessSession::measureTags(NodeId node)
{
    // Click-to-colours: tag, wait for the partition, repaint the canvas; alternately tag and clear.
    auto samples = std::make_shared<std::vector<double>>();
    auto partitions = std::make_shared<std::vector<double>>();
    for (int i = 0; i < m_options.measureRepeats; ++i) {
        then([=, this] {
            auto t0 = std::make_shared<QElapsedTimer>();
            auto conn = std::make_shared<QMetaObject::Connection>();
            auto painted = std::make_shared<QMetaObject::Connection>();
            // Stops at the first canvas repaint after the new partition arrived: what the user sees.
            *conn = connect(m_window->canvas(), &GraphCanvas::recoloured, this, [=, this] {
                disconnect(*conn);
                *painted = connect(m_window->canvas()->view(), &GraphView::painted, this, [=, this] {
                    disconnect(*painted);
                    samples->push_back(ms(t0->nsecsElapsed()));
                    partitions->push_back(m_window->document()->outcome()->seconds * 1000);
                });
            });
            t0->start();
            m_window->document()->tagNodes(
                {node}, i % 2 == 0 ? std::optional(CheckpointPolicy::MustRecompute) : std::nullopt);
        });
    }
    then([=, this] {
        std::printf("  %-26s median %.1f ms, max %.1f ms over %zu tags (partitionGraph median %.1f ms)\n",
            "tag -> new colours", median(*samples), maximum(*samples), samples->size(), median(*partitions));
    });
}

void HeadlessSession::queueMeasureSteps()
{
    // The longest the GUI thread stays away from its event loop, per part of the run.
    auto probe = std::make_shared<GuiStallProbe>();
    auto phase = [this, probe](const QString& name) { then([probe, name] { probe->beginPhase(name); }); };
    phase(QStringLiteral("cold open"));
    openAndMeasure(QStringLiteral("cold open"));
    if (!m_options.expand.isEmpty()) {
        phase(QStringLiteral("--expand ") + m_options.expand);
        measureExpand();
    }
    // A node to tag: the named one, else the largest saved value (so that the tag matters).
    auto node = std::make_shared<NodeId>(kNoNode);
    auto expandStart = std::make_shared<QElapsedTimer>();
    then([=, this] {
        const LoadedGraphPtr g = m_window->document()->graph();
        if (!m_options.select.isEmpty())
            *node = g->graph.find(m_options.select.toStdString());
        const PartitionOutcomePtr outcome = m_window->document()->outcome();
        if (*node == kNoNode && outcome && outcome->ok()) {
            std::int64_t best = -1;
            for (NodeId n : outcome->result->savedValues) {
                if (g->bytesOf(n) > best && g->graph.node(n).op == NodeOp::CallFunction) {
                    best = g->bytesOf(n);
                    *node = n;
                }
            }
        }
        if (*node == kNoNode) {
            fail(QStringLiteral("--measure: no node to tag"));
            return;
        }
        std::printf(
            "  tagging %s (%s)\n", qPrintable(g->label(*node).name), qPrintable(g->label(*node).size));
    });
    phase(QStringLiteral("expand its group"));
    auto revealed = std::make_shared<double>(-1);
    then([=, this] {
        // Selecting a node inside a collapsed group expands the group: time until it is drawn.
        timeNextPicture(expandStart, revealed);
        expandStart->start();
        m_window->selection()->selectNode(*node, NodeSelection::Origin::Search);
    });
    then([=, this] {
        if (*revealed >= 0)
            std::printf("  %-26s %8.1f ms (%zu boxes now)\n", "expand its group", *revealed,
                m_window->canvas()->scene()->boxCount());
        // The tag steps need the node chosen above: insert them before the remaining steps.
        auto saved = std::move(m_steps);
        m_steps.clear();
        phase(QStringLiteral("tags"));
        measureTags(*node);
        phase(QStringLiteral("what-if, sweep, plot clicks"));
        measurePictures(*node);
        for (auto& s : saved)
            m_steps.push_back(std::move(s));
    });
    phase(QStringLiteral("reopen"));
    openAndMeasure(QStringLiteral("reopen (layout cache warm)"));
    then([probe] {
        probe->endPhase();
        std::printf("GUI thread\n");
        for (const GuiStallProbe::Phase& p : probe->phases())
            std::printf("  %s\n", qPrintable(GuiStallProbe::describe(p)));
    });
}

} // namespace remat::ui
