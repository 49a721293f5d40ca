// SPDX-License-Identifier: MIT
// --measure, continued: what the pictures cost on the GUI's side (the what-if in the inspector,
// the budget sweep of the trade-off dock, a click on one of its points until the canvas repaints).
#include "analysis/pareto_sweeper.h"
#include "canvas/graph_canvas.h"
#include "canvas/graph_scene.h"
#include "canvas/graph_view.h"
#include "document/graph_document.h"
#include "document/node_selection.h"
#include "model/budget_outcome.h"
#include "panels/node_inspector.h"
#include "panels/pareto_panel.h"
#include "plots/pareto_plot.h"
#include "window/headless_session.h"
#include "window/main_window.h"
#include "window/timing_math.h"

#include <QElapsedTimer>

#include <cstdio>
#include <memory>

namespace remat::ui {
namespace {

constexpr int kWhatIfNodes = 5;
constexpr int kClicks = 8;

} // namespace

void HeadlessSession::measurePictures(NodeId node)
{
    // What-if: select a saved node, until the inspector shows its answer.
    auto whatIfWall = std::make_shared<std::vector<double>>();
    auto whatIfWork = std::make_shared<std::vector<double>>();
    auto nodes = std::make_shared<std::vector<NodeId>>();
    then([=, this] {
        const PartitionOutcomePtr outcome = m_window->document()->outcome();
        nodes->push_back(node);
        for (NodeId n : outcome->result->savedValues) {
            if (static_cast<int>(nodes->size()) >= kWhatIfNodes)
                break;
            if (n != node && !outcome->result->banReason(n))
                nodes->push_back(n);
        }
    });
    for (int i = 0; i < kWhatIfNodes; ++i) {
        then([=, this] {
            if (static_cast<std::size_t>(i) >= nodes->size())
                return;
            auto t0 = std::make_shared<QElapsedTimer>();
            auto conn = std::make_shared<QMetaObject::Connection>();
            *conn = connect(m_window->inspector(), &NodeInspector::analysisShown, this, [=, this] {
                disconnect(*conn);
                whatIfWall->push_back(ms(t0->nsecsElapsed()));
                whatIfWork->push_back(m_window->inspector()->analysis()->seconds * 1000);
            });
            m_window->selection()->clear(NodeSelection::Origin::Program);
            t0->start();
            m_window->selection()->selectNode(
                (*nodes)[static_cast<std::size_t>(i)], NodeSelection::Origin::Program);
        });
    }
    then([=] {
        std::printf(
            "  %-26s median %.1f ms, max %.1f ms over %zu nodes (the core's what-if: median %.1f ms)\n",
            "select -> what-if shown", median(*whatIfWall), maximum(*whatIfWall), whatIfWall->size(),
            median(*whatIfWork));
    });

    // The sweep: choose the memory-budget partitioner, until the first points and the last.
    auto sweepStart = std::make_shared<QElapsedTimer>();
    auto firstPoints = std::make_shared<double>(-1);
    auto done = std::make_shared<double>(-1);
    then([=, this] {
        ParetoSweeper* sweeper = m_window->paretoPanel()->sweeper();
        auto first = std::make_shared<QMetaObject::Connection>();
        auto stopped = std::make_shared<QMetaObject::Connection>();
        *first = connect(sweeper, &ParetoSweeper::snapshot, this, [=] {
            disconnect(*first);
            *firstPoints = ms(sweepStart->nsecsElapsed());
        });
        *stopped = connect(sweeper, &ParetoSweeper::stopped, this, [=] {
            disconnect(*stopped);
            *done = ms(sweepStart->nsecsElapsed());
        });
        GraphDocument* doc = m_window->document();
        sweepStart->start();
        doc->setPartitionSettings(PartitionerKind::MinCut, doc->rules(), doc->compiler(), true);
    });
    then([=, this] {
        const ParetoSnapshotPtr s = m_window->paretoPanel()->plot()->snapshot();
        std::printf(
            "  %-26s first points %.0f ms, all %.0f ms: %zu plans from %d budgets (session %.0f ms)\n",
            "budget sweep", *firstPoints, *done, s ? s->result.points.size() : 0,
            s ? s->result.budgetsEvaluated : 0, s ? s->sessionSeconds * 1000 : 0.0);
        printPeakMemory(m_window->document()->graph()->size());
    });

    // Clicks on points spread over the curve, until the canvas shows that plan: its repaint, or
    // the recolour itself when nothing in view changed (no view repaints then).
    auto clicks = std::make_shared<std::vector<double>>();
    auto unseen = std::make_shared<int>(0);
    for (int i = 0; i < kClicks; ++i) {
        then([=, this] {
            const ParetoSnapshotPtr s = m_window->paretoPanel()->plot()->snapshot();
            if (!s || s->result.points.empty())
                return;
            const auto& points = s->result.points;
            const double budget = points[points.size() * static_cast<std::size_t>(i) / kClicks].budget;
            auto t0 = std::make_shared<QElapsedTimer>();
            auto conn = std::make_shared<QMetaObject::Connection>();
            auto painted = std::make_shared<QMetaObject::Connection>();
            *conn = connect(m_window->canvas(), &GraphCanvas::recoloured, this, [=, this] {
                disconnect(*conn);
                if (!m_window->canvas()->scene()->lastRecolourInView()) {
                    clicks->push_back(ms(t0->nsecsElapsed()));
                    ++*unseen;
                    return;
                }
                *painted = connect(m_window->canvas()->view(), &GraphView::painted, this, [=] {
                    disconnect(*painted);
                    clicks->push_back(ms(t0->nsecsElapsed()));
                });
            });
            t0->start();
            Q_EMIT m_window->paretoPanel()->plot()->budgetPicked(budget);
        });
    }
    then([=] {
        std::printf("  %-26s median %.1f ms, max %.1f ms over %zu points (%d changed nothing in view)\n",
            "click point -> new colours", median(*clicks), maximum(*clicks), clicks->size(), *unseen);
    });
}

} // namespace remat::ui
