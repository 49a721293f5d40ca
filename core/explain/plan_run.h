// SPDX-License-Identifier: MIT
#pragma once

#include "budget/budget_planner.h"
#include "explain/plan_request.h"
#include "graph/joint_graph.h"
#include "partition/partition_result.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace remat {

class BudgetSession;

/// The numbers every view of a plan shows.
struct PlanSummary {
    std::int64_t savedBytes = 0; ///< plain sum of the saved values' sizes
    std::int64_t activationBytes = 0; ///< distinct non-input storages among them (as the budget counts)
    std::int64_t peakBytes = 0; ///< simulated peak of forward then backward (core/budget/memory_simulation)
    double estimatedRuntime = 0; ///< the estimator's cost of everything the backward recomputes
    std::string runtimeUnit; ///< the estimator's unit: "flops", "nodes" or "ms"
    /// Flops estimator: the recomputed nodes without a FLOP formula, which it counts as 1 each.
    int flooredRecomputeCount = 0;
    int savedCount = 0;
    int savedSymCount = 0; ///< dynamic shapes: SymInts passed to the backward beside the saved values
    int rngStateCount = 0; ///< RNG states the forward saves for random ops the backward replays
    int recomputedCount = 0;
    int bannedCount = 0;
};

/// A plan with its numbers; `budget` is set for memory-budget plans (the stage and the knapsack
/// that decided, for explanations).
struct PlanRun {
    PartitionResult result;
    PlanSummary summary;
    std::optional<BudgetDecision> budget;
};

/// One graph prepared for making and judging many plans: the estimator's cost of every node once,
/// and per rule set the dead-code-eliminated, CSE'd graph with its storage map and memory
/// simulator, built on first use. run() and summarize() are const and thread-safe (the lazily
/// built parts are guarded), so a GUI worker can ask what-ifs while another thread plans.
class PlanRunner {
public:
    /// `estimatorOptions` price recomputation in every summary (its estimator and device); a
    /// budget request's own budgetOptions drive its knapsack. Throws remat::Error when the
    /// roofline estimator has no device.
    PlanRunner(const JointGraph& graph, BudgetOptions estimatorOptions);
    ~PlanRunner();
    PlanRunner(const PlanRunner&) = delete;
    PlanRunner& operator=(const PlanRunner&) = delete;

    const JointGraph& graph() const { return *m_graph; }
    const BudgetOptions& estimatorOptions() const { return m_estimatorOptions; }

    /// Makes the plan and summarizes it. Throws remat::Error with PyTorch's or our reason (a graph
    /// without a backward, a tag on a graph input, a budget outside [0, 1], an infeasible cut).
    PlanRun run(const PlanRequest& request) const;

    /// The numbers of a plan made elsewhere (read from a file, recorded by PyTorch).
    PlanSummary summarize(const PartitionResult& result) const;

    /// The plan that saves exactly `saved` (other nodes of this graph), its forward and backward
    /// extracted as `options`' partitioner and rules extract them (the min-cut after dead-code
    /// elimination and CSE, where a merged node stands for its kept twin; the default partition on
    /// the graph as it is). Saved values the backward never reads are dropped, as PyTorch does.
    /// Throws remat::Error naming `source` and the node when one is not in the partitioned graph.
    PartitionResult planSaving(
        const PartitionOptions& options, std::span<const NodeId> saved, const std::string& source) const;

    /// The memory-budget session a budget request plans with (the knapsack's items, the planner);
    /// built on first use and kept with the few latest. Throws remat::Error as run() does.
    std::shared_ptr<const BudgetSession> budgetSession(const PlanRequest& request) const;

private:
    struct Preparation;
    struct Caches;
    /// The partitioned graph of these options' rules (built on first use, kept).
    const Preparation& preparation(const PartitionOptions& options) const;
    PlanRun plan(const PlanRequest& request) const;

    const JointGraph* m_graph;
    BudgetOptions m_estimatorOptions;
    std::string m_runtimeUnit;
    std::vector<double> m_cost; ///< per node, the estimator's cost (call_function nodes only)
    std::vector<bool> m_floored; ///< per node, whether that cost is the flops estimator's floor of 1
    std::unique_ptr<Caches> m_caches;
};

} // namespace remat
