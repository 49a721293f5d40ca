// SPDX-License-Identifier: MIT
#pragma once

#include "partition/partition_result.h"

#include <cstdint>
#include <string>
#include <vector>

namespace remat {

class JointGraph;
class PreparedMinCut;

/// The min-cut partitioner's flow network and its minimum cut, as data for a teaching view:
/// built by the same code that partitions (PreparedMinCut::buildNetwork, under either rule set),
/// solved with the same max-flow, and limited to a region of the graph for drawing.
struct MinCutLesson {
    enum class VertexKind : std::uint8_t { Source, Sink, In, Out };
    struct Vertex {
        VertexKind kind;
        NodeId node = kNoNode; ///< In/Out: the node split in two
        bool sinkSide = false; ///< after the cut: must be (re)computed in the backward
    };
    enum class EdgeKind : std::uint8_t {
        Ban, ///< source -> X_in, infinite: X may not be recomputed
        Save, ///< X_in -> X_out: the cost of saving X
        Data, ///< X_out -> U_in, infinite: U reads X
        NeededInBackward, ///< X_out -> sink: the backward needs X
        ComputedInBackward, ///< X_in -> sink: X is a backward node
    };
    struct Edge {
        int from;
        int to;
        std::int64_t capacity; ///< PartitionResult::kInfiniteWeight for infinite edges
        EdgeKind kind;
        bool cut = false; ///< crosses the minimum cut (source side -> sink side)
    };

    std::vector<Vertex> vertices; ///< only those of the region (and source, sink), renumbered
    std::vector<Edge> edges; ///< only those between them
    std::vector<NodeId> regionNodes;
    std::vector<NodeId> saved; ///< the whole cut's saved values inside the region
    std::vector<BannedNode> banned; ///< bans inside the region, with their rule
    std::int64_t cutValue = 0; ///< of the whole network
    std::int64_t regionCutValue = 0;
    int totalVertices = 0; ///< of the whole network
    int totalEdges = 0;
};

/// Builds and cuts the network of `prepared` (its rules, its base options) and keeps the part that
/// touches `region` (empty: every node). Throws remat::Error when the graph has no backward.
MinCutLesson buildMinCutLesson(const PreparedMinCut& prepared, const std::vector<NodeId>& region);

} // namespace remat
