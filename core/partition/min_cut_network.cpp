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

void SplitNodeNetwork::inToSink(NodeId n)
{
    m_network.addInfiniteEdge(in(n), FlowNetwork::kSink);
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
    std::string text;
    NodeId previous = kNoNode;
    for (int v : path) {
        if (v < 2)
            continue;
        const NodeId n = m_graph.order()[static_cast<std::size_t>((v - 2) / 2)];
        if (n == previous)
            continue;
        previous = n;
        text += (text.empty() ? "" : " -> ") + m_graph.node(n).name;
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
