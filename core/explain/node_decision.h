// SPDX-License-Identifier: MIT
#pragma once

#include "budget/budget_planner.h"
#include "graph/joint_graph.h"
#include "partition/partition_result.h"

#include <string>
#include <string_view>
#include <vector>

namespace remat {

/// What a plan did with one node. A banned node the plan saves is Banned (it cannot be flipped);
/// Forward and Backward are nodes in only one of the two graphs (or removed before partitioning).
enum class NodeDecision { Saved, Recomputed, Banned, Forward, Backward, Input };

/// "saved", "recomputed", "banned", "forward", "backward", "input" (scripts depend on these).
std::string_view decisionName(NodeDecision decision);

NodeDecision decisionOf(const JointGraph& graph, const PartitionResult& result, NodeId n);
/// decisionOf for every node at once (linear in the plan's size), indexed by node id.
std::vector<NodeDecision> decisionsOf(const JointGraph& graph, const PartitionResult& result);

/// One or two plain sentences: the rule that decided (the ban reason, the cut, the knapsack, a tag,
/// "only the backward uses it", ...). `budget` is the memory-budget decision behind the plan, if any.
std::string decisionReason(
    const JointGraph& graph, const PartitionResult& result, NodeId n, const BudgetDecision* budget = nullptr);

} // namespace remat
