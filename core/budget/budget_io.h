// SPDX-License-Identifier: MIT
#pragma once

#include "budget/memory_simulation.h"
#include "budget/pareto.h"
#include "io/plan_json.h"

#include <string>

namespace remat {

/// The plan keys a budgeted plan adds to planToJson: "budget", "memory_ratio", "activation_bytes",
/// "estimated_runtime", "peak_bytes" (when simulated), and "budget_stage", "runtime_unit".
/// "memory_ratio" is null when undefined (the runtime-optimal cut saves only inputs); no number
/// we write is ever NaN or infinite: such a value is null in JSON and empty in CSV.
PlanExtras budgetPlanExtras(const JointGraph& graph, const BudgetedPlan& plan, std::string_view runtimeUnit);
/// A budget plan's name for people: "memory budget 0.3 (torch-2.14 rules, dp knapsack, flops
/// estimator)", with " on DEVICE" for the roofline estimator's device.
std::string budgetPlanLabel(
    double budget, KnapsackSolver solver, RuntimeEstimatorKind estimator, const std::string& device);

/// The settings a budget plan was made with, as plan keys: "solver", "estimator" and, for the
/// roofline estimator, "device".
void addBudgetSettings(
    PlanExtras& extras, KnapsackSolver solver, RuntimeEstimatorKind estimator, const std::string& device);

/// {"runtime_unit", "budgets_evaluated", "distinct_plans", "cancelled", "seconds",
///  "points": [{"budget", "budget_max", "activation_bytes", "saved_bytes", "memory_ratio",
///  "estimated_runtime", "peak_bytes", "on_frontier", "saved_count", "recomputed_count", "stage",
///  "peak_node", "peak_phase"}],
///  "recorded": [{"key", "budget", "activation_bytes", "estimated_runtime", "peak_bytes",
///  "saved_count", "same_as_ours", "saved_only_by_ours", "saved_only_by_pytorch"}]} (PyTorch's
///  plans, empty when the file has none to compare; the two lists name the differing values)
std::string paretoToJson(const JointGraph& graph, const ParetoResult& result,
    const std::vector<RecordedBudgetPoint>& recorded = {});

/// One row per point: budget,budget_max,activation_bytes,estimated_runtime,peak_bytes,on_frontier,
/// saved_count,recomputed_count,saved_bytes,memory_ratio,stage
std::string paretoToCsv(const ParetoResult& result);

/// One row per step: step,phase,node,inputs,saved,outputs,recomputed,gradients,temporaries,total
std::string memoryTimelineToCsv(const JointGraph& graph, const MemoryProfile& profile);

} // namespace remat
