// SPDX-License-Identifier: MIT
#include "partition/flow_network.h"

#include "graph/error.h"

// GCC 12 reports -Wmaybe-uninitialized inside Boost.Graph's edge iterators once they are inlined
// here (a known false positive of boost::optional); the rest of the file keeps every warning.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/boykov_kolmogorov_max_flow.hpp>

#include <deque>
#include <limits>

namespace remat {
namespace {

using Traits = boost::adjacency_list_traits<boost::vecS, boost::vecS, boost::directedS>;
using BoostGraph = boost::adjacency_list<
    boost::vecS, boost::vecS, boost::directedS,
    boost::property<boost::vertex_index_t, long,
                    boost::property<boost::vertex_color_t, boost::default_color_type,
                                    boost::property<boost::vertex_distance_t, long,
                                                    boost::property<boost::vertex_predecessor_t,
                                                                    Traits::edge_descriptor>>>>,
    boost::property<boost::edge_capacity_t, FlowNetwork::Capacity,
                    boost::property<boost::edge_residual_capacity_t, FlowNetwork::Capacity,
                                    boost::property<boost::edge_reverse_t, Traits::edge_descriptor>>>>;

} // namespace

FlowNetwork::FlowNetwork(int vertexCount)
    : m_vertexCount(vertexCount)
{
}

void FlowNetwork::addEdge(int from, int to, Capacity capacity)
{
    m_edges.push_back({from, to, capacity, false});
}

void FlowNetwork::addInfiniteEdge(int from, int to)
{
    m_edges.push_back({from, to, 0, true});
}

std::vector<int> FlowNetwork::infinitePath() const
{
    std::vector<std::vector<int>> out(static_cast<std::size_t>(m_vertexCount));
    for (const Edge& e : m_edges) {
        if (e.infinite)
            out[static_cast<std::size_t>(e.from)].push_back(e.to);
    }
    std::vector<int> parent(static_cast<std::size_t>(m_vertexCount), -1);
    std::deque<int> queue {kSource};
    parent[kSource] = kSource;
    while (!queue.empty()) {
        const int v = queue.front();
        queue.pop_front();
        if (v == kSink)
            break;
        for (int w : out[static_cast<std::size_t>(v)]) {
            if (parent[static_cast<std::size_t>(w)] < 0) {
                parent[static_cast<std::size_t>(w)] = v;
                queue.push_back(w);
            }
        }
    }
    std::vector<int> path;
    if (parent[kSink] < 0)
        return path;
    for (int v = kSink; v != kSource; v = parent[static_cast<std::size_t>(v)])
        path.push_back(v);
    path.push_back(kSource);
    return {path.rbegin(), path.rend()};
}

std::optional<FlowNetwork::Cut> FlowNetwork::minimumCut() const
{
    if (!infinitePath().empty())
        return std::nullopt;

    // Infinite edges get a capacity above every finite cut: the finite total plus one.
    Capacity finiteTotal = 0;
    for (const Edge& e : m_edges) {
        if (!e.infinite && __builtin_add_overflow(finiteTotal, e.capacity, &finiteTotal))
            throw Error("the flow network's capacities overflow 64 bits");
    }
    if (finiteTotal >= std::numeric_limits<Capacity>::max() / 4)
        throw Error("the flow network's capacities are too large to solve exactly");
    const Capacity infinity = finiteTotal + 1;

    BoostGraph g(static_cast<std::size_t>(m_vertexCount));
    auto capacity = boost::get(boost::edge_capacity, g);
    auto reverse = boost::get(boost::edge_reverse, g);
    auto residual = boost::get(boost::edge_residual_capacity, g);
    std::vector<Traits::edge_descriptor> forward;
    forward.reserve(m_edges.size());
    for (const Edge& e : m_edges) {
        const auto there = boost::add_edge(static_cast<std::size_t>(e.from), static_cast<std::size_t>(e.to), g).first;
        const auto back = boost::add_edge(static_cast<std::size_t>(e.to), static_cast<std::size_t>(e.from), g).first;
        capacity[there] = e.infinite ? infinity : e.capacity;
        capacity[back] = 0;
        reverse[there] = back;
        reverse[back] = there;
        forward.push_back(there);
    }

    Cut cut;
    cut.value = boost::boykov_kolmogorov_max_flow(g, kSource, kSink);

    // Sink side: vertices that reach the sink through edges with residual capacity left.
    // Every edge into v appears as the reverse of one of v's out-edges.
    cut.sinkSide.assign(static_cast<std::size_t>(m_vertexCount), 0);
    std::vector<std::size_t> stack {kSink};
    cut.sinkSide[kSink] = 1;
    while (!stack.empty()) {
        const std::size_t v = stack.back();
        stack.pop_back();
        for (auto [it, end] = boost::out_edges(v, g); it != end; ++it) {
            const auto into = reverse[*it]; // u -> v
            const std::size_t u = boost::target(*it, g);
            if (!cut.sinkSide[u] && residual[into] > 0) {
                cut.sinkSide[u] = 1;
                stack.push_back(u);
            }
        }
    }
    for (std::size_t i = 0; i < m_edges.size(); ++i) {
        const Edge& e = m_edges[i];
        if (!cut.sinkSide[static_cast<std::size_t>(e.from)] && cut.sinkSide[static_cast<std::size_t>(e.to)])
            cut.cutEdges.push_back(static_cast<int>(i));
    }
    return cut;
}

} // namespace remat
