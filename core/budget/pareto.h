// SPDX-License-Identifier: MIT
#pragma once

#include "budget/budget_session.h"

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace remat {

struct ParetoProgress {
    int evaluated = 0; ///< budgets evaluated so far
    int scheduled = 0; ///< budgets scheduled so far (grows while bisecting)
    int distinctPlans = 0; ///< plans found so far
    bool refining = false; ///< past the initial grid, bisecting between neighbours
};

struct ParetoResult;

struct ParetoOptions {
    int points = 101; ///< the initial grid: budgets i / (points - 1), i = 0..points-1
    double resolution = 1e-6; ///< bisection stops when two budgets with different plans are this close
    int threads = 0; ///< 0: one per hardware thread
    bool simulatePeak = true;
    const std::atomic<bool>* cancel = nullptr;
    /// Called from worker threads, never two at a time; keep it short (post to the GUI thread).
    std::function<void(const ParetoProgress&)> progress;
    /// Called on the sweeping thread after each round with the plans found so far (frontier marked),
    /// so that a view can draw them as they arrive. With it set, every tenth budget of the grid is
    /// evaluated first: a rough curve comes early, and the sampled budgets stay the same.
    std::function<void(const ParetoResult&)> snapshot;
};

/// One plan of the sweep, over the contiguous range of budgets that produced it.
struct ParetoPoint {
    double budget = 0; ///< the lowest budget of the sweep that gave this plan
    double budgetMax = 0; ///< the highest: the plan holds on [budget, budgetMax]
    BudgetStage stage = BudgetStage::RuntimeOptimal;
    PlanMetrics metrics;
    int savedCount = 0;
    int recomputedCount = 0;
    NodeId peakNode = kNoNode;
    Phase peakPhase = Phase::Forward;
    /// Shared: the app copies the growing result into every progress snapshot, and a 100k-node
    /// sweep has thousands of plans of thousands of values each.
    std::shared_ptr<const std::vector<NodeId>> saved;
    bool onFrontier = false; ///< no other point has less activation memory and less runtime
};

struct ParetoResult {
    std::vector<ParetoPoint> points; ///< by budget
    int budgetsEvaluated = 0;
    int distinctPlans = 0;
    bool cancelled = false;
    double seconds = 0;
    std::string runtimeUnit;
};

/// One of PyTorch's recorded memory-budget plans, measured as the sweep measures its own (see
/// explain/recorded_budget_points.h), to be set beside the sweep.
struct RecordedBudgetPoint {
    double budget = 0;
    std::string key; ///< the file's record: "memory_budget_0.25"
    PlanMetrics metrics; ///< peakBytes only if the peak was simulated
    std::vector<NodeId> saved; ///< the plan's saved values after extraction, sorted
    bool sameAsOurs = false; ///< the session's own plan at this budget saves exactly these
    std::vector<NodeId> savedOnlyByOurs; ///< sorted; empty when sameAsOurs
    std::vector<NodeId> savedOnlyByPyTorch; ///< sorted; empty when sameAsOurs
};

/// Plans for budgets from 0 to 1: a grid of `points` budgets, then bisection between neighbours
/// whose plans differ until every change is pinned down to `resolution`. Each distinct plan is cut,
/// extracted and simulated once (plans are keyed by the knapsack's decision), on several threads.
/// Points keep dominated plans, flagged by onFrontier = false (activation bytes vs estimated runtime).
ParetoResult sweepPareto(const BudgetSession& session, const ParetoOptions& options = {});

/// Marks onFrontier on every point (minimising activation bytes and estimated runtime).
void markFrontier(std::vector<ParetoPoint>& points);

} // namespace remat
