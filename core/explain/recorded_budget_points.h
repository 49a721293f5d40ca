// SPDX-License-Identifier: MIT
#pragma once

#include "budget/budget_session.h"
#include "budget/pareto.h"

#include <string>
#include <vector>

namespace remat {

struct RecordedBudgetPoints {
    std::vector<RecordedBudgetPoint> points; ///< by budget
    std::vector<std::string> unusable; ///< why a record was left out (a node the graph lacks)
};

/// PyTorch's memory_budget_<b> decisions that the session's plans can be set beside
/// (comparableBudgetRecords: the session's knapsack variant, no tags, a torch 2.x file), measured,
/// and each checked against the session's own plan at its budget.
RecordedBudgetPoints measureRecordedBudgetPlans(const BudgetSession& session, bool simulatePeak);

} // namespace remat
