// SPDX-License-Identifier: MIT
#pragma once

#include "explain/plan_request.h"
#include "explain/plan_run.h"
#include "partition/partition_result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace remat {

/// The save edge X_in -> X_out of one node in the min-cut's flow network.
struct SaveEdge {
    NodeId node = kNoNode;
    /// In the partitioner's weight unit (see CutNeighbourhood::weightUnit);
    /// PartitionResult::kInfiniteWeight (never cut) or kNoWeightEdge (the node has no save edge).
    std::int64_t capacity = PartitionResult::kNoWeightEdge;
    bool onCut = false; ///< cut: the plan saves this node
};

/// Where a node ranked in the memory budget's knapsack (items are the nodes the aggressive min-cut
/// still had to ban; saving one costs its memory and spares its recomputation).
struct KnapsackPlace {
    std::int64_t bytes = 0;
    double memory = 0; ///< normalised as PyTorch does: bytes / (max - min activation bytes)
    double runtime = 0; ///< the estimator's cost of recomputing it
    std::string runtimeUnit; ///< "flops", "nodes" or "ms"
    double runtimePerByte = 0;
    int rank = 0; ///< 1 = the most runtime saved per byte, among `itemCount` items
    int itemCount = 0;
    bool kept = false; ///< the knapsack kept it banned rather than allowing its recomputation
};

/// A node's place in what decided it: for a min-cut its save edge, the edges around it (its
/// producers' and consumers' save edges) and whether it is on the cut; for a knapsack its value
/// per byte and its rank.
struct CutNeighbourhood {
    bool minCut = false; ///< the plan came from a min-cut: the edges below mean something
    std::string weightUnit; ///< what a capacity counts, in words
    std::optional<std::int64_t> cutValue;
    SaveEdge self;
    std::vector<SaveEdge> producers; ///< its inputs in the partitioned graph
    std::vector<SaveEdge> consumers; ///< its users in the partitioned graph (the output node left out)
    std::optional<KnapsackPlace> knapsack; ///< budget plans decided by the knapsack, for its items
};

/// `result` must be the plan `request` made (its weights are the network's capacities). For a
/// budget request the knapsack's items come from the runner's session for the request.
CutNeighbourhood cutNeighbourhood(
    const PlanRunner& runner, const PlanRequest& request, const PartitionResult& result, NodeId n);

} // namespace remat
