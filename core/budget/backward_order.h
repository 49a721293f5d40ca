// SPDX-License-Identifier: MIT
#pragma once

#include "partition/partition_result.h"
#include "partition/work_graph.h"

#include <vector>

namespace remat {

/// reordering_to_mimic_autograd_engine (reference doc section 7.3): the backward graph's
/// placeholders in order, then, from the first user of a tangent on, every node preceded by the
/// not-yet-emitted nodes it needs (in their original order), so recomputed forward values are made
/// just before their first backward consumer. Before that point only copy_ nodes are emitted.
/// Returns the backward graph's nodes (PartitionResult::bwNodes) in execution order.
std::vector<NodeId> autogradBackwardOrder(const WorkGraph& graph, const PartitionResult& result);

} // namespace remat
