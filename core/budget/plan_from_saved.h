// SPDX-License-Identifier: MIT
#pragma once

#include "budget/budget_session.h"

#include <string>
#include <vector>

namespace remat {

/// A plan given only by the values it saves (a plan file, PyTorch's recorded decision): the
/// forward and backward re-extracted from that saved set under the session's rules, its metrics,
/// and its memory simulated. `source` names where the list came from, for errors ("plan.json").
/// Throws remat::Error naming `source` and the value when a name is not a node of the graph or
/// does not survive dead-code elimination and CSE.
BudgetedPlan planFromSavedNames(const BudgetSession& session, const std::vector<std::string>& savedNames,
    const std::string& source, const MemorySimulationOptions& memory = {});

} // namespace remat
