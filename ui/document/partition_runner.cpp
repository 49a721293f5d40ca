// SPDX-License-Identifier: MIT
#include "document/partition_runner.h"

#include "model/background_priority.h"
#include "model/budget_outcome.h"
#include "model/budget_session_cache.h"
#include "model/thread_handoff.h"
#include "model/timing_log.h"

#include <QPointer>

namespace remat::ui {

PartitionRunner::PartitionRunner(QObject* parent)
    : QObject(parent)
    , m_sessions(std::make_shared<BudgetSessionCache>())
{
    m_pool.setMaxThreadCount(1);
    m_pool.setExpiryTimeout(-1); // keep the thread warm: a tag should not pay for thread start-up
}

PartitionRunner::~PartitionRunner()
{
    m_pool.waitForDone();
}

void PartitionRunner::setGraph(LoadedGraphPtr graph)
{
    m_graph = std::move(graph);
    m_waiting.reset();
    ++m_generation; // results for the previous graph are stale
    // Free the previous graph's budget session, on the thread that uses it, after any run in flight.
    startInPool(m_pool, [sessions = m_sessions] { sessions->clear(); });
}

void PartitionRunner::request(const PartitionRequest& request)
{
    if (!m_graph)
        return;
    const std::uint64_t generation = ++m_generation;
    if (m_running)
        m_waiting = std::make_pair(request, generation);
    else
        start(request, generation);
}

void PartitionRunner::start(const PartitionRequest& request, std::uint64_t generation)
{
    m_running = true;
    LoadedGraphPtr graph = m_graph;
    QPointer<PartitionRunner> self(this);
    // Back to the GUI thread with a queued call, not a QFuture continuation (see GraphOpener::open).
    startInPool(m_pool, [self, graph, request, generation, sessions = m_sessions] {
        lowerThreadPriority();
        qCDebug(lcTiming, "%9.2f partition %llu starts", timingClockMs(),
            static_cast<unsigned long long>(generation));
        PartitionOutcomePtr outcome = request.budget
            ? runBudgetPartition(graph, *sessions, request.options, *request.budget, generation)
            : runPartition(*graph, request.options, generation);
        qCDebug(lcTiming, "%9.2f partition %llu done (partitionGraph %.2f ms)", timingClockMs(),
            static_cast<unsigned long long>(generation), outcome->seconds * 1000);
        queueCall(self, [self, outcome] {
            if (self)
                self->onFinished(outcome);
        });
    });
}

void PartitionRunner::onFinished(PartitionOutcomePtr outcome)
{
    qCDebug(lcTiming, "%9.2f partition %llu back on the GUI thread", timingClockMs(),
        static_cast<unsigned long long>(outcome->generation));
    m_running = false;
    if (m_waiting) {
        const auto next = *m_waiting;
        m_waiting.reset();
        start(next.first, next.second);
    }
    if (outcome->generation == m_generation)
        Q_EMIT finished(outcome);
}

} // namespace remat::ui
