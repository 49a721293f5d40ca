// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/classification.h"
#include "partition/partition_options.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace remat {

struct BannedNode {
    NodeId node;
    std::string reason; ///< the rule that banned recomputing it ("not in the recomputable-op list", ...)
};

/// An offload tag the activation-offloading pass did not follow, and why.
struct OffloadRefusal {
    NodeId node;
    std::string reason; ///< can_offload's words ("Cannot offload views.", ...)
};

/// What a partitioner decided, with everything needed to explain each decision.
struct PartitionResult {
    PartitionOptions options;

    std::vector<NodeId> savedValues; ///< joint-graph order
    std::vector<NodeId> savedSymNodes; ///< always empty for graphs with static shapes
    std::vector<NodeId> fwNodes; ///< the forward graph: primals, then its computation
    std::vector<NodeId> bwNodes; ///< the backward graph: saved values, tangents, computation
    std::vector<NodeId> recomputed; ///< call_function nodes in both graphs (not saved)
    std::vector<BannedNode> banned; ///< insertion order, as PyTorch's banned_nodes
    std::int64_t savedBytes = 0; ///< sum of numel x itemsize of the saved values
    /// With config.activationOffloading: saved values kept on the host between their last forward
    /// use and their first backward use (joint order), the offload tags refused, and their bytes.
    std::vector<NodeId> offloaded;
    std::vector<OffloadRefusal> offloadRefused;
    std::int64_t offloadedBytes = 0;
    std::optional<std::int64_t> cutValue; ///< min-cut only, in the partitioner's weight units
    double seconds = 0;

    // Why: the intermediate facts behind the decisions.
    std::vector<NodeId> dceRemoved; ///< removed by dead-code elimination before partitioning
    std::vector<NodeId> mergedInto; ///< per node: kNoNode, or the node CSE (or a joint pass) merged it into
    std::vector<char>
        removedByJointPasses; ///< per node: Inductor's joint passes removed it (config.inductorJointPasses)
    NodeClasses classes; ///< required_fw / required_bw / dist_from_bw
    static constexpr std::int64_t kInfiniteWeight = -1;
    static constexpr std::int64_t kNoWeightEdge = -2;
    std::vector<std::int64_t> weights; ///< per node: capacity of its save edge (min-cut), or a k* value
    std::vector<CheckpointPolicy>
        effectiveTags; ///< per node, after the user's tags and PyTorch's cleanup passes
    std::vector<std::string>
        notes; ///< what happened along the way ("graph has no backward: default partition")

    bool isSaved(NodeId n) const;
    bool isOffloaded(NodeId n) const;
    const BannedNode* banReason(NodeId n) const;
};

} // namespace remat
