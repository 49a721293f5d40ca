// SPDX-License-Identifier: MIT
#include "analysis/plan_profiler.h"

#include "budget/plan_from_saved.h"
#include "model/background_priority.h"
#include "model/budget_outcome.h"
#include "model/budget_session_cache.h"
#include "model/thread_handoff.h"

#include <QPointer>

namespace remat::ui {

struct PlanProfiler::Job {
    LoadedGraphPtr graph;
    std::shared_ptr<const BudgetSession> session;
    std::shared_ptr<const PartitionResult> result; ///< the plan as simulated
};

PlanProfiler::PlanProfiler(QObject* parent)
    : QObject(parent)
    , m_sessions(std::make_shared<BudgetSessionCache>())
{
    m_pool.setMaxThreadCount(1);
}

PlanProfiler::~PlanProfiler()
{
    m_pool.clear();
    m_pool.waitForDone();
}

void PlanProfiler::clear()
{
    m_current.reset();
    ++m_generation[0];
    ++m_generation[1];
    startInPool(m_pool, [sessions = m_sessions] { sessions->clear(); });
}

void PlanProfiler::profile(LoadedGraphPtr graph, PartitionOutcomePtr outcome, int slot, const QString& label)
{
    const std::uint64_t generation = ++m_generation[slot];
    if (!graph || !outcome || !outcome->ok())
        return;
    ++m_pending;
    QPointer<PlanProfiler> self(this);
    startInPool(m_pool, [self, graph, outcome, slot, label, generation, sessions = m_sessions] {
        lowerThreadPriority();
        auto job = std::make_shared<Job>();
        job->graph = graph;
        auto out = std::make_shared<PlanProfile>();
        out->generation = generation;
        out->label = label;
        try {
            if (outcome->budget && outcome->budget->sessionRef) {
                job->session = outcome->budget->sessionRef;
                job->result = outcome->result;
                out->note = tr("Simulated with the memory-budget plan's own session.");
            } else {
                const BudgetSessionCache::Entry entry
                    = sessions->get(graph, outcome->options, BudgetSettings {});
                std::vector<std::string> names;
                for (NodeId n : outcome->result->savedValues)
                    names.push_back(graph->graph.node(n).name);
                const std::size_t tensors = names.size();
                for (NodeId n : outcome->result->savedSymNodes) // dynamic shapes: SymInts for the backward
                    names.push_back(graph->graph.node(n).name);
                BudgetedPlan plan
                    = planFromSavedNames(*entry.session, names, label.toStdString(), {false, false});
                job->session = entry.session;
                job->result = std::make_shared<const PartitionResult>(std::move(plan.result));
                out->note = tr("Re-extracted from its %1 saved values under the torch-2.14 rules, as "
                               "'remat-explorer memory --plan' does.")
                                .arg(tensors);
            }
            out->profile = job->session->simulator().run(*job->result, MemorySimulationOptions {true, false});
        } catch (const std::exception& e) {
            out->error = QString::fromUtf8(e.what());
        }
        queueCall(self, [self, out, job, slot] {
            if (!self)
                return;
            --self->m_pending;
            if (out->generation != self->m_generation[slot])
                return;
            if (slot == 0)
                self->m_current = out->ok() ? job : nullptr;
            Q_EMIT self->profiled(slot, out);
        });
    });
}

void PlanProfiler::requestLiveAt(int step)
{
    const std::shared_ptr<Job> job = m_current;
    if (!job)
        return;
    ++m_pending;
    QPointer<PlanProfiler> self(this);
    startInPool(m_pool, [self, job, step] {
        lowerThreadPriority();
        std::vector<LiveTensor> tensors = job->session->simulator().liveAt(*job->result, step);
        queueCall(self, [self, job, step, tensors = std::move(tensors)] {
            if (!self)
                return;
            --self->m_pending;
            if (self->m_current == job)
                Q_EMIT self->liveAt(step, tensors);
        });
    });
}

} // namespace remat::ui
