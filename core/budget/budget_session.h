// SPDX-License-Identifier: MIT
#pragma once

#include "budget/budget_planner.h"
#include "budget/memory_simulation.h"
#include "budget/region_budget.h"
#include "budget/storage_aliasing.h"
#include "partition/min_cut_preparation.h"

#include <optional>
#include <string>

namespace remat {

/// The numbers a memory-budget plan is judged by.
struct PlanMetrics {
    /// PyTorch's mem_ratio of the saved values the min-cut chose; nullopt when it is undefined
    /// (the runtime-optimal cut saves no more than the inputs: nothing to normalise against).
    std::optional<double> memoryRatio;
    std::int64_t activationBytes = 0; ///< distinct non-input storages among the saved values
    std::int64_t savedBytes = 0; ///< plain sum of the saved values' sizes
    double estimatedRuntime = 0; ///< the estimator's cost of everything the backward recomputes
    std::optional<std::int64_t> peakBytes;
    std::int64_t offloadedBytes = 0; ///< saved values the offloading pass keeps on the host
};

struct BudgetedPlan {
    double budget = 1;
    BudgetStage stage = BudgetStage::RuntimeOptimal;
    BudgetDecision decision;
    PartitionResult result;
    PlanMetrics metrics;
    std::optional<MemoryProfile> memory; ///< when asked for
};

/// What a sweep keeps of a plan.
struct PlanOutline {
    BudgetStage stage = BudgetStage::RuntimeOptimal;
    PlanMetrics metrics;
    std::vector<NodeId> saved; ///< PartitionResult::savedValues
    int recomputedCount = 0;
    NodeId peakNode = kNoNode; ///< with the simulation only
    Phase peakPhase = Phase::Forward;
};

/// One graph prepared for memory-budget partitioning (newest rules): DCE, CSE and the tag passes
/// once, the planner's shared stages once, the storage map once. plan() is const and thread-safe,
/// so a sweep can call it from several threads.
class BudgetSession {
public:
    /// `options.rules` is forced to the newest rules and min-cut. Throws remat::Error when the
    /// graph has no backward (nothing to trade) or the options are unusable.
    BudgetSession(const JointGraph& graph, PartitionOptions options, BudgetOptions budgetOptions);

    const JointGraph& graph() const { return m_prepared.joint(); }
    const PreparedMinCut& prepared() const { return m_prepared; }
    const BudgetPlanner& planner() const { return m_planner; }
    const StorageMap& storages() const { return m_storages; }
    const MemorySimulator& simulator() const { return m_simulator; }

    /// The budget the graph's own meta["memory_budget"] imposes over `configured` (see region_budget.h).
    ResolvedBudget resolveBudget(double configured) const;

    /// choose_saved_values_set(budget), the forward/backward graphs, and the metrics; the memory
    /// simulation too if `memory` is set (its timeline only if options.timeline).
    BudgetedPlan plan(
        double budget, const std::optional<MemorySimulationOptions>& memory = std::nullopt) const;

    /// The graphs and metrics of a decision already taken (the sweep caches decisions).
    BudgetedPlan evaluate(
        const BudgetDecision& decision, const std::optional<MemorySimulationOptions>& memory) const;

    /// evaluate() without what only explains the plan (bans, weights, tags, notes, the timeline):
    /// the same saved values and metrics, for a sweep that evaluates thousands of plans.
    PlanOutline outline(const BudgetDecision& decision, bool simulatePeak) const;

    /// Metrics of any plan of this graph (a plan read back from a file, say); `chosen` is the saved
    /// set before extraction dropped unused values (the memory ratio is PyTorch's, on that set).
    PlanMetrics metrics(const PartitionResult& result, std::span<const NodeId> chosen) const;

    /// With config.activationOffloading, the offloading pass over a plan cut from this graph
    /// (result.offloaded, offloadRefused, offloadedBytes); nothing otherwise.
    void applyOffloading(PartitionResult& result) const;

private:
    static PartitionOptions newest(PartitionOptions options);

    PreparedMinCut m_prepared;
    BudgetPlanner m_planner;
    StorageMap m_storages;
    MemorySimulator m_simulator;
    std::vector<double> m_cost; ///< the estimator's cost of each node, computed once
    std::vector<CheckpointPolicy> m_offloadMarks; ///< the tags the offloading pass reads, if enabled
};

} // namespace remat
