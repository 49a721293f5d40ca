// SPDX-License-Identifier: MIT
#pragma once

#include "budget/budget_session.h"
#include "model/budget_settings.h"
#include "model/partition_outcome.h"

#include <memory>
#include <string>

namespace remat::ui {

class BudgetSessionCache;

/// What the memory-budget partitioner adds to a PartitionOutcome: the plan (whose result is the
/// outcome's result) and what the summary and the plan file say about it.
struct BudgetOutcome {
    std::shared_ptr<const BudgetedPlan> plan;
    BudgetSettings settings; ///< as requested (settings.budget may differ from plan->budget)
    NodeId budgetFromNode = kNoNode; ///< the node whose meta["memory_budget"] set the budget instead
    std::string runtimeUnit; ///< "flops", "nodes" or "ms"
    std::string device; ///< the roofline estimator's device, else empty
    std::size_t candidates = 0; ///< knapsack items (nodes the aggressive min-cut still banned)
    std::uint64_t session = 0; ///< which BudgetSession planned it
    /// That session (const and thread-safe): the timeline and the what-if re-simulate with it.
    std::shared_ptr<const BudgetSession> sessionRef;
    LoadedGraphPtr graphRef; ///< the graph that session refers to, kept alive with it
    double sessionSeconds = 0; ///< building that session, when this run built it; else 0
};

/// Plans `settings.budget` with the cached session for the graph, the options' tags and the
/// settings (built if they changed), simulating the peak memory. Never throws: failures come back
/// in `error` with the core's message. The outcome's options are the forced ones (min-cut, newest).
PartitionOutcomePtr runBudgetPartition(const LoadedGraphPtr& graph, BudgetSessionCache& sessions,
    const PartitionOptions& options, const BudgetSettings& settings, std::uint64_t generation);

} // namespace remat::ui
