// SPDX-License-Identifier: MIT
#pragma once

#include "graph/joint_graph.h"

#include <cstdint>
#include <vector>

namespace remat::ui {

/// Where a node sits in the joint graph, independent of any partition decision: the canvas
/// colours and places nodes by region, so it must not move when the user re-partitions.
enum class Region : std::uint8_t {
    Primal, ///< parameter, buffer or example input
    Tangent, ///< incoming gradient
    Forward, ///< an ancestor of a forward output
    Backward, ///< downstream of a tangent
    Unclaimed, ///< computable from primals but needed only by the backward (PyTorch's "unclaimed")
    Output, ///< the single output node
};

/// Which side of the U-shaped layout a region is drawn on.
enum class Side : std::uint8_t { Forward, Backward };

Side sideOf(Region region);
const char* regionName(Region region);

struct GraphRegions {
    std::vector<Region> region; ///< per node id
    /// Per node id. Unclaimed nodes that the trace computes during the forward (a layer norm's
    /// saved mean, detached activations) sit on the forward side, the rest on the backward side.
    std::vector<Side> side;

    Region of(NodeId n) const { return region[static_cast<std::size_t>(n)]; }
    Side sideOf(NodeId n) const { return side[static_cast<std::size_t>(n)]; }
};

GraphRegions computeRegions(const JointGraph& graph);

/// Whether the partitioner accepts a user tag on this node (it rejects graph inputs).
bool isTaggable(const JointGraph& graph, NodeId n);

} // namespace remat::ui
