// SPDX-License-Identifier: MIT
#pragma once

#include "budget/budget_planner.h"
#include "partition/partition_options.h"

#include <optional>

namespace remat {

/// How one plan is made, for any partitioner: the plain partitioners read `options`; with a
/// `budget`, the memory-budget partitioner (BudgetSession, newest rules, min-cut) runs with
/// `options` (its tags and config) and `budgetOptions`.
struct PlanRequest {
    PartitionOptions options; ///< partitioner, rules, compiler, config, tags
    std::optional<double> budget; ///< set: the memory-budget partitioner, budget in [0, 1]
    BudgetOptions budgetOptions; ///< solver, estimator, device (memory budget only)

    bool isBudget() const { return budget.has_value(); }
};

/// Same plan asked for: every field that can change the plan is equal (devices by name).
bool samePlanRequest(const PlanRequest& a, const PlanRequest& b);

/// The request with `policy` as the user's tag of `node` (replacing any tag it had).
PlanRequest withTag(PlanRequest request, NodeId node, CheckpointPolicy policy);

} // namespace remat
