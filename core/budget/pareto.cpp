// SPDX-License-Identifier: MIT
#include "budget/pareto.h"

#include "budget/parallel_for.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>

namespace remat {
namespace {

/// One distinct plan, computed by whichever thread asks first.
struct PlanEntry {
    std::once_flag once;
    int id = 0;
    ParetoPoint summary;
};

class Sweep {
public:
    Sweep(const BudgetSession& session, const ParetoOptions& options)
        : m_session(session)
        , m_options(options)
    {
    }

    ParetoResult run()
    {
        const auto start = std::chrono::steady_clock::now();
        m_session.planner().prepareForManySolves();
        const int points = std::max(m_options.points, 2);
        std::vector<double> coarse, rest;
        constexpr int kCoarseStride = 10;
        for (int i = 0; i < points; ++i) {
            const double budget = i == points - 1 ? 1.0 : static_cast<double>(i) / (points - 1);
            const bool early = m_options.snapshot && (i % kCoarseStride == 0 || i == points - 1);
            (early ? coarse : rest).push_back(budget);
        }
        for (const auto* batch : {&coarse, &rest}) {
            if (!batch->empty() && !cancelled()) {
                evaluate(*batch);
                report(start);
            }
        }
        m_refining = true;
        while (!cancelled()) {
            const std::vector<double> batch = midpoints();
            if (batch.empty())
                break;
            evaluate(batch);
            report(start);
        }
        return collect(start);
    }

private:
    ParetoResult collect(std::chrono::steady_clock::time_point start) const
    {
        ParetoResult result;
        result.runtimeUnit = std::string(m_session.planner().estimator().unit());
        result.cancelled = cancelled();
        result.budgetsEvaluated = static_cast<int>(m_samples.size());
        result.distinctPlans = static_cast<int>(m_entries.size());
        result.points = segments();
        markFrontier(result.points);
        result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        return result;
    }

    void report(std::chrono::steady_clock::time_point start) const
    {
        if (m_options.snapshot)
            m_options.snapshot(collect(start));
    }

    bool cancelled() const { return m_options.cancel && m_options.cancel->load(); }

    void evaluate(const std::vector<double>& budgets)
    {
        {
            const std::lock_guard lock(m_mutex);
            m_scheduled += static_cast<int>(budgets.size());
        }
        std::vector<int> ids(budgets.size(), -1);
        parallelFor(
            budgets.size(), m_options.threads, [&](std::size_t i) { ids[i] = planFor(budgets[i]); }, m_options.cancel);
        for (std::size_t i = 0; i < budgets.size(); ++i) {
            if (ids[i] >= 0)
                m_samples.emplace_back(budgets[i], ids[i]);
        }
        std::sort(m_samples.begin(), m_samples.end());
    }

    int planFor(double budget)
    {
        BudgetDecision decision = m_session.planner().decide(budget);
        std::shared_ptr<PlanEntry> entry;
        {
            const std::lock_guard lock(m_mutex);
            auto& slot = m_entries[decision.solutionKey()];
            if (!slot) {
                slot = std::make_shared<PlanEntry>();
                slot->id = static_cast<int>(m_byId.size());
                m_byId.push_back(slot);
            }
            entry = slot;
        }
        std::call_once(entry->once, [&] { entry->summary = summarize(decision); });
        const std::lock_guard lock(m_mutex);
        ++m_evaluated;
        if (m_options.progress)
            m_options.progress({m_evaluated, m_scheduled, static_cast<int>(m_entries.size()), m_refining});
        return entry->id;
    }

    ParetoPoint summarize(const BudgetDecision& decision) const
    {
        std::optional<MemorySimulationOptions> memory;
        if (m_options.simulatePeak)
            memory = MemorySimulationOptions {false, false};
        const BudgetedPlan plan = m_session.evaluate(decision, memory);
        ParetoPoint point;
        point.stage = plan.stage;
        point.metrics = plan.metrics;
        point.savedCount = static_cast<int>(plan.result.savedValues.size());
        point.recomputedCount = static_cast<int>(plan.result.recomputed.size());
        point.saved = plan.result.savedValues;
        if (plan.memory) {
            point.peakNode = plan.memory->peakNode;
            point.peakPhase = plan.memory->peakPhase;
        }
        return point;
    }

    /// Budgets halfway between sorted neighbours whose plans differ, while they are far enough apart.
    std::vector<double> midpoints() const
    {
        std::vector<double> out;
        for (std::size_t i = 1; i < m_samples.size(); ++i) {
            const auto& [a, planA] = m_samples[i - 1];
            const auto& [b, planB] = m_samples[i];
            if (planA != planB && b - a > m_options.resolution) {
                const double mid = a + (b - a) / 2;
                if (mid > a && mid < b)
                    out.push_back(mid);
            }
        }
        return out;
    }

    /// Runs of equal plans along the sorted budgets, one point each.
    std::vector<ParetoPoint> segments() const
    {
        std::vector<ParetoPoint> points;
        int current = -1;
        for (const auto& [budget, id] : m_samples) {
            if (id != current) {
                points.push_back(m_byId[static_cast<std::size_t>(id)]->summary);
                points.back().budget = budget;
                current = id;
            }
            points.back().budgetMax = budget;
        }
        return points;
    }

    const BudgetSession& m_session;
    const ParetoOptions& m_options;
    std::mutex m_mutex;
    std::map<std::vector<int>, std::shared_ptr<PlanEntry>> m_entries;
    std::vector<std::shared_ptr<PlanEntry>> m_byId;
    std::vector<std::pair<double, int>> m_samples;
    int m_evaluated = 0;
    int m_scheduled = 0;
    bool m_refining = false;
};

} // namespace

void markFrontier(std::vector<ParetoPoint>& points)
{
    for (auto& p : points) {
        p.onFrontier = std::none_of(points.begin(), points.end(), [&](const ParetoPoint& q) {
            const auto& a = q.metrics;
            const auto& b = p.metrics;
            return a.activationBytes <= b.activationBytes && a.estimatedRuntime <= b.estimatedRuntime
                && (a.activationBytes < b.activationBytes || a.estimatedRuntime < b.estimatedRuntime);
        });
    }
}

ParetoResult sweepPareto(const BudgetSession& session, const ParetoOptions& options)
{
    return Sweep(session, options).run();
}

} // namespace remat
