// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/classification.h"
#include "partition/work_graph.h"

#include <optional>
#include <string>

namespace remat {

/// The budget a graph is partitioned under: config.activation_memory_budget, overridden by the
/// first node (graph order) whose meta["memory_budget"] is set, as min_cut_rematerialization_partition
/// does. A graph takes one budget: nodes that disagree ("conflicting budgets") or a budget that
/// covers only part of the forward are errors, as PyTorch's region budget tests expect.
struct ResolvedBudget {
    double budget = 1.0;
    NodeId fromNode = kNoNode; ///< the node whose meta set it, or kNoNode for the configured value
};

/// Throws remat::Error with PyTorch's message for a budget outside [0, 1].
ResolvedBudget resolveMemoryBudget(const WorkGraph& graph, const NodeClasses& classes, double configured);

/// "The valid ranges for memory budget are 0 <= m <= 1. The provided value is 1.5"
void checkMemoryBudget(double budget);

/// A double as Python's repr() writes it ("0.3", "2.0", "1e-05").
std::string pythonFloat(double value);

} // namespace remat
