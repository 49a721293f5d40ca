// SPDX-License-Identifier: MIT
#pragma once

#include "partition/flow_network.h"
#include "partition/partition_result.h"
#include "partition/work_graph.h"

#include <string>
#include <unordered_map>
#include <vector>

namespace remat {

/// The partitioner's flow network: every node X is split into X_in -> X_out, whose capacity is
/// the cost of saving X; source-side values are available in the forward, sink-side ones must be
/// (re)computed in the backward. Cutting X_in -> X_out means saving X.
class SplitNodeNetwork {
public:
    explicit SplitNodeNetwork(const WorkGraph& graph);

    int in(NodeId n) const { return 2 + 2 * m_graph.position(n); }
    int out(NodeId n) const { return 3 + 2 * m_graph.position(n); }

    /// Bans recomputing X (source -> X_in, infinite): X can only come from the forward. The first
    /// reason given is the one recorded; banning again changes nothing (networkx overwrites).
    void ban(NodeId n, std::string reason);
    bool isBanned(NodeId n) const { return m_hasSourceEdge[static_cast<std::size_t>(n)] != 0; }
    /// The banned nodes in the order they were banned, as PyTorch's banned_nodes.
    const std::vector<BannedNode>& banned() const { return m_banned; }
    /// The same, moved out, for a network that is done with (solve() names the bans it meets).
    std::vector<BannedNode> takeBanned() { return std::move(m_banned); }
    /// X must be computed in the backward; `why` (a recompute tag, say) explains a failed cut.
    void inToSink(NodeId n, std::string why = {});
    void outToSink(NodeId n); ///< X must be available in the backward
    void saveEdge(NodeId n, std::int64_t capacity); ///< X_in -> X_out; PartitionResult::kInfiniteWeight = inf
    void dataEdge(NodeId from, NodeId user); ///< X_out -> U_in, infinite

    struct Solution {
        std::vector<NodeId> saved; ///< graph order
        std::int64_t cutValue = 0;
    };
    /// Solves the minimum cut; throws remat::Error naming the offending chain of nodes when a value
    /// the backward needs can be neither saved nor recomputed (an all-infinite path).
    Solution solve() const;
    /// The network as built, for solvers that reuse it.
    const FlowNetwork& flow() const { return m_network; }

private:
    std::string describeInfinitePath(const std::vector<int>& path) const;

    const WorkGraph& m_graph;
    FlowNetwork m_network;
    std::vector<char> m_hasSourceEdge;
    std::vector<BannedNode> m_banned;
    std::unordered_map<NodeId, std::string> m_whyInBackward;
};

} // namespace remat
