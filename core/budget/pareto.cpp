// SPDX-License-Identifier: MIT
#include "budget/pareto.h"

#include "budget/parallel_for.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <memory>
#include <mutex>
#include <numeric>
#include <optional>

namespace remat {
namespace {

/// One distinct plan, worked out by the thread that meets it first.
struct PlanEntry {
    int id = 0;
    ParetoPoint summary;
};

class Sweep {
public:
    Sweep(const BudgetSession& session, const ParetoOptions& options)
        : m_session(session)
        , m_options(options)
    { }

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
        return collect(start, segments(true));
    }

private:
    ParetoResult collect(std::chrono::steady_clock::time_point start, std::vector<ParetoPoint> points) const
    {
        ParetoResult result;
        result.runtimeUnit = std::string(m_session.planner().estimator().unit());
        result.cancelled = cancelled();
        result.budgetsEvaluated = static_cast<int>(m_samples.size());
        result.distinctPlans = static_cast<int>(m_entries.size());
        result.points = std::move(points);
        markFrontier(result.points);
        result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        return result;
    }

    void report(std::chrono::steady_clock::time_point start)
    {
        if (m_options.snapshot)
            m_options.snapshot(collect(start, segments(false)));
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
            budgets.size(), m_options.threads, [&](std::size_t i) { ids[i] = planFor(budgets[i]); },
            m_options.cancel);
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
        bool first = false;
        {
            const std::lock_guard lock(m_mutex);
            auto& slot = m_entries[decision.solutionKey()];
            if (!slot) {
                slot = std::make_shared<PlanEntry>();
                slot->id = static_cast<int>(m_byId.size());
                m_byId.push_back(slot);
                first = true;
            }
            entry = slot;
        }
        // The others do not wait for it: summaries are read once the round is over.
        if (first)
            entry->summary = summarize(decision);
        const std::lock_guard lock(m_mutex);
        ++m_evaluated;
        if (m_options.progress)
            m_options.progress({m_evaluated, m_scheduled, static_cast<int>(m_entries.size()), m_refining});
        return entry->id;
    }

    ParetoPoint summarize(const BudgetDecision& decision) const
    {
        PlanOutline plan = m_session.outline(decision, m_options.simulatePeak);
        ParetoPoint point;
        point.stage = plan.stage;
        point.metrics = plan.metrics;
        point.savedCount = static_cast<int>(plan.saved.size());
        point.recomputedCount = plan.recomputedCount;
        point.saved = std::make_shared<const std::vector<NodeId>>(std::move(plan.saved));
        point.peakNode = plan.peakNode;
        point.peakPhase = plan.peakPhase;
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

    /// Runs of equal plans along the sorted budgets, one point each. `final`: the sweep is over,
    /// so each plan's summary moves into its last run's point instead of being copied.
    std::vector<ParetoPoint> segments(bool final)
    {
        std::vector<int> runsLeft(final ? m_byId.size() : 0, 0);
        int current = -1;
        for (const auto& [budget, id] : m_samples) {
            if (final && id != current)
                ++runsLeft[static_cast<std::size_t>(id)];
            current = id;
        }
        std::vector<ParetoPoint> points;
        current = -1;
        for (const auto& [budget, id] : m_samples) {
            if (id != current) {
                ParetoPoint& summary = m_byId[static_cast<std::size_t>(id)]->summary;
                if (final && --runsLeft[static_cast<std::size_t>(id)] == 0)
                    points.push_back(std::move(summary));
                else
                    points.push_back(summary);
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

namespace {

bool dominates(const PlanMetrics& a, const PlanMetrics& b)
{
    return a.activationBytes <= b.activationBytes && a.estimatedRuntime <= b.estimatedRuntime
        && (a.activationBytes < b.activationBytes || a.estimatedRuntime < b.estimatedRuntime);
}

} // namespace

void markFrontier(std::vector<ParetoPoint>& points)
{
    const bool nan = std::any_of(points.begin(), points.end(),
        [](const ParetoPoint& p) { return std::isnan(p.metrics.estimatedRuntime); });
    if (nan) { // unordered: compare every pair
        for (auto& p : points) {
            const auto dominatesP = [&](const ParetoPoint& q) { return dominates(q.metrics, p.metrics); };
            p.onFrontier = std::none_of(points.begin(), points.end(), dominatesP);
        }
        return;
    }
    // By bytes, then runtime: a point is dominated by a smaller one that is no slower, or by an
    // equal one that is faster. Snapshots mark thousands of points each round.
    std::vector<std::size_t> order(points.size());
    std::iota(order.begin(), order.end(), std::size_t {0});
    const auto metrics = [&](std::size_t i) -> const PlanMetrics& { return points[i].metrics; };
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return std::pair(metrics(a).activationBytes, metrics(a).estimatedRuntime)
            < std::pair(metrics(b).activationBytes, metrics(b).estimatedRuntime);
    });
    std::optional<double> fastestSmaller;
    for (std::size_t first = 0; first < order.size();) {
        const std::int64_t bytes = metrics(order[first]).activationBytes;
        const double fastest = metrics(order[first]).estimatedRuntime;
        std::size_t end = first;
        for (; end < order.size() && metrics(order[end]).activationBytes == bytes; ++end) {
            const double runtime = metrics(order[end]).estimatedRuntime;
            const bool dominated = (fastestSmaller && *fastestSmaller <= runtime) || fastest < runtime;
            points[order[end]].onFrontier = !dominated;
        }
        fastestSmaller = fastestSmaller ? std::min(*fastestSmaller, fastest) : fastest;
        first = end;
    }
}

ParetoResult sweepPareto(const BudgetSession& session, const ParetoOptions& options)
{
    return Sweep(session, options).run();
}

} // namespace remat
