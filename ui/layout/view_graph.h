// SPDX-License-Identifier: MIT
#pragma once

#include "layout/layout_types.h"
#include "model/loaded_graph.h"

#include <vector>

namespace remat::ui {

/// One box on the canvas: a node, or a collapsed group standing for its members.
struct ViewItem {
    bool isGroup = false;
    int id = 0; ///< NodeId, or group index
    Side side = Side::Forward;
    int cluster = -1; ///< innermost expanded group's frame holding it
};

/// An edge between two boxes; several graph edges between the same two boxes become one.
struct ViewEdge {
    int from = 0;
    int to = 0;
    EdgeRole role = EdgeRole::Down;
    std::vector<NodeId> sources; ///< distinct producers behind it (saved ones colour it)
    int count = 0; ///< graph edges it stands for
};

/// An expanded group, drawn as a frame around its members.
struct ViewCluster {
    int group = 0;
    int parent = -1;
};

/// What the canvas shows for a given set of expanded groups.
struct ViewGraph {
    std::vector<ViewItem> items;
    std::vector<ViewEdge> edges;
    std::vector<ViewCluster> clusters;
    std::vector<int> itemOfNode; ///< per node: the box showing it (its own or its group's), -1 if hidden
    std::vector<int> itemOfGroup; ///< per group: its box when shown collapsed, else -1
    std::vector<int> clusterOfGroup; ///< per group: its frame when shown expanded, else -1
};

/// Pictures with more boxes than this are never handed to dot with frames (dot is slow with
/// them): they are composed group by group, or laid out unframed and framed afterwards.
constexpr std::size_t kFramedUpTo = 1500;

/// `expanded` has one flag per group of the graph's GroupTree (ignored for ungrouped graphs).
ViewGraph buildViewGraph(const LoadedGraph& graph, const std::vector<char>& expanded);

/// The Graphviz request for a view, with box sizes from the canvas metrics.
LayoutRequest layoutRequestFor(const LoadedGraph& graph, const ViewGraph& view);

} // namespace remat::ui
