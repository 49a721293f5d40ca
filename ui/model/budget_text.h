// SPDX-License-Identifier: MIT
#pragma once

#include "model/budget_outcome.h"

#include <QString>

#include <string_view>

namespace remat::ui {

/// A cost in the runtime estimator's unit, as the command line prints it: "524.3 kFLOP", "3.4 GFLOP",
/// "12.5 ms", "1.25 s", "17 nodes".
QString formatRuntime(double value, std::string_view unit);

/// Which branch of choose_saved_values_set decided, with the knapsack's numbers:
/// "knapsack (dp, 147 candidates, 82 allowed to be recomputed)".
QString budgetStageText(const BudgetOutcome& budget);
/// One sentence on what that branch means.
QString budgetStageExplanation(BudgetStage stage);

/// The budget plan's numbers as rows for the partition summary: budget, deciding stage, memory
/// ratio, activation bytes, estimated recompute runtime, simulated peak memory.
QString budgetSummaryHtml(const LoadedGraph& graph, const BudgetOutcome& budget);

} // namespace remat::ui
