// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/rule_set.h"
#include "partition/work_graph.h"

#include <vector>

namespace remat {

class OpCategories;

/// Where each node of a (DCE'd, CSE'd) joint graph belongs, as PyTorch's classify_nodes decides,
/// and how far each forward node is from the backward (dist_from_bw).
struct NodeClasses {
    static constexpr int kFar = 1'000'000'000; ///< int(1e9): "never needed by the backward"

    std::vector<char> requiredFw; ///< computable from primals and needed for the forward outputs
    std::vector<char> requiredBw; ///< downstream of the tangents (newest: + bw outputs, must-be-in-backward)
    std::vector<char> tangentClosure; ///< newest: the tangents' closure alone
    std::vector<int> distFromBw; ///< per node id; 0 for non-forward nodes
    std::vector<int> fwOrder; ///< newest: rank among required_fw nodes, -1 otherwise
    std::vector<NodeId> inputs; ///< primals (and forward RNG seeds), in graph order

    bool isRequiredFw(NodeId n) const { return requiredFw[static_cast<std::size_t>(n)] != 0; }
    bool isRequiredBw(NodeId n) const { return requiredBw[static_cast<std::size_t>(n)] != 0; }
    bool isUnclaimed(NodeId n) const { return !isRequiredFw(n) && !isRequiredBw(n); }
    int dist(NodeId n) const { return distFromBw[static_cast<std::size_t>(n)]; }
};

NodeClasses classifyNodes(const WorkGraph& graph, const OpCategories& ops);

} // namespace remat
