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
/// order() returns the backward graph's nodes (PartitionResult::bwNodes) in execution order. Made
/// once for many plans of one graph (a memory-budget sweep): what it asks of each node
/// (placeholder, tangent, copy_) is read once. order() is const and thread-safe.
class BackwardOrderer {
public:
    explicit BackwardOrderer(const WorkGraph& graph);
    std::vector<NodeId> order(const PartitionResult& result) const;

private:
    const WorkGraph* m_graph;
    std::vector<char> m_isPlaceholder; ///< per node
    std::vector<NodeId> m_tangents;
    std::vector<NodeId> m_copies; ///< aten.copy_ nodes
};

} // namespace remat
