// SPDX-License-Identifier: MIT
#include "analysis/pareto_sweeper.h"

#include "explain/recorded_budget_points.h"
#include "graph/error.h"
#include "model/background_priority.h"
#include "model/budget_session_cache.h"
#include "model/thread_handoff.h"

#include <QPointer>

#include <chrono>

namespace remat::ui {

std::vector<ParetoSnapshot::Recorded> recordedBudgetPlans(const BudgetSession& session, QStringList* leftOut)
{
    // Peaks too: a plot of peaks alone sets the crosses on them.
    const RecordedBudgetPoints measured = measureRecordedBudgetPlans(session, true);
    std::vector<ParetoSnapshot::Recorded> out;
    for (const RecordedBudgetPoint& p : measured.points)
        out.push_back({p.budget, p.metrics, p.sameAsOurs, QString::fromStdString(p.key),
            static_cast<int>(p.saved.size()), static_cast<int>(p.savedOnlyByPyTorch.size()),
            static_cast<int>(p.savedOnlyByOurs.size())});
    for (const std::string& why : measured.unusable) {
        if (leftOut)
            *leftOut << QString::fromStdString(why);
    }
    return out;
}

ParetoSweeper::ParetoSweeper(QObject* parent)
    : QObject(parent)
    , m_sessions(std::make_shared<BudgetSessionCache>())
    , m_cancel(std::make_shared<std::atomic<bool>>(false))
{
    m_pool.setMaxThreadCount(1);
}

ParetoSweeper::~ParetoSweeper()
{
    m_cancel->store(true);
    m_pool.waitForDone(); // the sweep checks the flag before every budget: this is quick
}

void ParetoSweeper::cancel()
{
    m_cancel->store(true);
}

void ParetoSweeper::start(
    LoadedGraphPtr graph, const PartitionOptions& options, const BudgetSettings& settings)
{
    m_cancel->store(true); // the sweep in flight stops; this one gets a fresh flag
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    m_latest.reset();
    const std::uint64_t generation = ++m_generation;
    ++m_running;
    QPointer<ParetoSweeper> self(this);
    auto post = [self](auto function) {
        queueCall(self, [self, function] {
            if (self)
                function(*self);
        });
    };
    auto job = [graph, options, settings, generation, cancel = m_cancel, sessions = m_sessions, post] {
        lowerThreadPriority(); // the sweep's threads on every core inherit it
        bool cancelled = false;
        try {
            const auto start = std::chrono::steady_clock::now();
            const BudgetSessionCache::Entry entry = sessions->get(graph, options, settings);
            const double sessionSeconds
                = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            QStringList leftOut;
            const auto recorded = recordedBudgetPlans(*entry.session, &leftOut);
            ParetoOptions sweep;
            sweep.cancel = cancel.get();
            // Tens of thousands of budgets: the GUI hears of them every 50 ms, not once each.
            auto lastProgress = std::make_shared<std::chrono::steady_clock::time_point>();
            sweep.progress = [post, generation, lastProgress](const ParetoProgress& p) {
                const auto now = std::chrono::steady_clock::now();
                if (now - *lastProgress < std::chrono::milliseconds(50))
                    return;
                *lastProgress = now;
                post([p, generation](ParetoSweeper& s) {
                    if (generation == s.m_generation)
                        Q_EMIT s.progress(p.evaluated, p.scheduled, p.distinctPlans);
                });
            };
            sweep.snapshot
                = [post, generation, recorded, leftOut, sessionSeconds](const ParetoResult& result) {
                      auto snapshot = std::make_shared<ParetoSnapshot>();
                      snapshot->generation = generation;
                      snapshot->result = result;
                      snapshot->recorded = recorded;
                      snapshot->recordedLeftOut = leftOut;
                      snapshot->sessionSeconds = sessionSeconds;
                      post([snapshot](ParetoSweeper& s) { s.deliver(snapshot); });
                  };
            ParetoResult result = sweepPareto(*entry.session, sweep);
            cancelled = result.cancelled;
            auto last = std::make_shared<ParetoSnapshot>();
            last->generation = generation;
            last->result = std::move(result);
            last->recorded = recorded;
            last->recordedLeftOut = leftOut;
            last->sessionSeconds = sessionSeconds;
            last->finished = !cancelled;
            post([last](ParetoSweeper& s) { s.deliver(last); });
        } catch (const std::exception& e) {
            const QString message = QString::fromUtf8(e.what());
            post([message, generation](ParetoSweeper& s) {
                if (generation == s.m_generation)
                    Q_EMIT s.failed(message);
            });
        }
        post([cancelled, generation](ParetoSweeper& s) {
            --s.m_running;
            if (generation == s.m_generation)
                Q_EMIT s.stopped(cancelled);
        });
    };
    startInPool(m_pool, std::move(job));
}

void ParetoSweeper::deliver(const ParetoSnapshotPtr& snapshot)
{
    if (snapshot->generation != m_generation)
        return; // a sweep that was superseded
    m_latest = snapshot;
    Q_EMIT this->snapshot(snapshot);
}

} // namespace remat::ui
