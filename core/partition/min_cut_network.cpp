// SPDX-License-Identifier: MIT
#include "partition/min_cut_network.h"

#include "graph/error.h"

#include <algorithm>

namespace remat {

SplitNodeNetwork::SplitNodeNetwork(const WorkGraph& graph)
    : m_graph(graph)
    , m_network(2 + 2 * static_cast<int>(graph.order().size()))
    , m_hasSourceEdge(graph.graph().size(), 0)
{
    // A data edge per use, and a save edge and at most one source or sink edge per node.
    std::size_t edges = 0;
    for (NodeId n : graph.order())
        edges += graph.users(n).size() + 2;
    m_network.reserveEdges(edges);
}

void SplitNodeNetwork::ban(NodeId n, std::string reason)
{
    auto& done = m_hasSourceEdge[static_cast<std::size_t>(n)];
    if (done)
        return;
    done = 1;
    m_network.addInfiniteEdge(FlowNetwork::kSource, in(n));
    m_banned.push_back({n, std::move(reason)});
}

void SplitNodeNetwork::inToSink(NodeId n, std::string why)
{
    m_network.addInfiniteEdge(in(n), FlowNetwork::kSink);
    if (!why.empty())
        m_whyInBackward.try_emplace(n, std::move(why));
}

void SplitNodeNetwork::outToSink(NodeId n)
{
    m_network.addInfiniteEdge(out(n), FlowNetwork::kSink);
}

void SplitNodeNetwork::saveEdge(NodeId n, std::int64_t capacity)
{
    if (capacity == PartitionResult::kInfiniteWeight)
        m_network.addInfiniteEdge(in(n), out(n));
    else
        m_network.addEdge(in(n), out(n), capacity);
}

void SplitNodeNetwork::dataEdge(NodeId from, NodeId user)
{
    m_network.addInfiniteEdge(out(from), in(user));
}

std::string SplitNodeNetwork::describeInfinitePath(const std::vector<int>& path) const
{
    // "a (cannot recompute: ...; cannot save: ...) -> b (must be computed in the backward: ...)":
    // the nodes along the path with the constraint each edge stands for, as PyTorch 2.x lists them.
    std::vector<std::pair<NodeId, std::vector<std::string>>> nodes;
    const auto nodeAt = [&](int v) { return m_graph.order()[static_cast<std::size_t>((v - 2) / 2)]; };
    const auto constraintsOf = [&](NodeId n) -> std::vector<std::string>& {
        if (nodes.empty() || nodes.back().first != n)
            nodes.push_back({n, {}});
        return nodes.back().second;
    };
    for (std::size_t i = 0; i + 1 < path.size(); ++i) {
        const int from = path[i];
        const int to = path[i + 1];
        if (from == FlowNetwork::kSource && to >= 2) {
            const NodeId n = nodeAt(to);
            const auto ban = std::find_if(
                m_banned.begin(), m_banned.end(), [&](const BannedNode& b) { return b.node == n; });
            constraintsOf(n).push_back(
                "cannot recompute" + (ban != m_banned.end() ? ": " + ban->reason : std::string()));
        } else if (from >= 2 && to == from + 1 && from % 2 == 0) {
            const NodeId n = nodeAt(from);
            const bool tensor = m_graph.node(n).valueKind == ValueKind::Tensor;
            constraintsOf(n).push_back(tensor ? "cannot save" : "cannot save: not a tensor");
        } else if (from >= 2 && to == FlowNetwork::kSink) {
            const NodeId n = nodeAt(from);
            const auto why = m_whyInBackward.find(n);
            constraintsOf(n).push_back(
                (from % 2 == 0 ? "must be computed in the backward" : "must be available in the backward")
                + (why != m_whyInBackward.end() ? ": " + why->second : std::string()));
        } else if (from >= 2) {
            constraintsOf(nodeAt(from));
        }
    }
    std::string text;
    for (const auto& [n, constraints] : nodes) {
        text += (text.empty() ? "" : " -> ") + m_graph.node(n).name;
        for (std::size_t k = 0; k < constraints.size(); ++k)
            text += (k == 0 ? " (" : "; ") + constraints[k] + (k + 1 == constraints.size() ? ")" : "");
    }
    return text;
}

SplitNodeNetwork::Solution SplitNodeNetwork::solve() const
{
    const auto cut = m_network.minimumCut();
    if (!cut) {
        throw Error("cannot partition: a value the backward needs can be neither saved nor recomputed "
                    "(every way to it passes a banned node or an unsaveable value): "
            + describeInfinitePath(m_network.infinitePath()));
    }
    Solution solution;
    solution.cutValue = cut->value;
    for (int index : cut->cutEdges) {
        const auto& edge = m_network.edges()[static_cast<std::size_t>(index)];
        // Only X_in -> X_out edges can be cut: in(n) is even, out(n) = in(n) + 1.
        if (edge.from < 2 || edge.from % 2 != 0 || edge.to != edge.from + 1)
            throw Error("internal error: the minimum cut contains an edge that is not a node's save edge");
        solution.saved.push_back(m_graph.order()[static_cast<std::size_t>((edge.from - 2) / 2)]);
    }
    std::sort(solution.saved.begin(), solution.saved.end());
    return solution;
}

} // namespace remat
