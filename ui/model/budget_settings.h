// SPDX-License-Identifier: MIT
#pragma once

#include "budget/budget_planner.h"

#include <QString>

namespace remat::ui {

/// The memory-budget partitioner as the user sets it: PyTorch's activation_memory_budget,
/// activation_memory_budget_solver and _runtime_estimator, and the roofline estimator's device.
struct BudgetSettings {
    double budget = 1.0; ///< PyTorch's default (the runtime-optimal min-cut)
    KnapsackSolver solver = KnapsackSolver::Dp;
    RuntimeEstimatorKind estimator = RuntimeEstimatorKind::Flops;
    QString device; ///< roofline only: a profile name; empty for the profile file's first device

    bool operator==(const BudgetSettings&) const = default;
    /// Same session: everything but the budget (a BudgetSession serves every budget).
    bool sameSession(const BudgetSettings& other) const;
};

/// The core's options for these settings; the roofline estimator reads the device profiles.
/// Throws remat::Error (no profile file, unknown device).
BudgetOptions budgetOptionsFor(const BudgetSettings& settings);

/// "dp · flops", "greedy · roofline on H100-SXM".
QString budgetMethodText(const BudgetSettings& settings);

} // namespace remat::ui
