// SPDX-License-Identifier: MIT
#include "partition/flow_network.h"

#include "graph/error.h"

// GCC 12 reports -Wmaybe-uninitialized inside Boost.Graph's edge iterators once they are inlined
// here (a known false positive of boost::optional); the rest of the file keeps every warning.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <boost/graph/boykov_kolmogorov_max_flow.hpp>
#include <boost/graph/compressed_sparse_row_graph.hpp>

#include <limits>

namespace remat {
namespace {

// 32-bit vertex and edge indices: half the bytes of the default's in every per-arc array.
using CsrGraph = boost::compressed_sparse_row_graph<boost::directedS, boost::no_property, boost::no_property,
    boost::no_property, std::uint32_t, std::uint32_t>;
using Vertex = boost::graph_traits<CsrGraph>::vertex_descriptor;
using EdgeDescriptor = boost::graph_traits<CsrGraph>::edge_descriptor;

/// Edges grouped by source vertex (a counting sort): `order[k]` is the k-th edge in that grouping.
struct GroupedEdges {
    std::vector<std::uint32_t> offsets; // per vertex, into order
    std::vector<std::uint32_t> order;
};

template <typename SourceOf>
GroupedEdges groupBySource(std::size_t vertexCount, std::size_t edgeCount, SourceOf sourceOf)
{
    GroupedEdges grouped;
    grouped.offsets.assign(vertexCount + 1, 0);
    for (std::size_t i = 0; i < edgeCount; ++i)
        ++grouped.offsets[sourceOf(i) + 1];
    for (std::size_t v = 0; v < vertexCount; ++v)
        grouped.offsets[v + 1] += grouped.offsets[v];
    grouped.order.resize(edgeCount);
    std::vector<std::uint32_t> fill(grouped.offsets.begin(), grouped.offsets.end() - 1);
    for (std::size_t i = 0; i < edgeCount; ++i)
        grouped.order[fill[sourceOf(i)]++] = static_cast<std::uint32_t>(i);
    return grouped;
}

/// Breadth first from the source along infinite edges, up to the sink: each vertex's parent on
/// that walk, -1 where it did not reach. `infiniteEdge(i)` is the edge behind grouped.order's
/// entry i when it is an infinite one leaving its vertex, else nullptr.
template <typename InfiniteEdge>
std::vector<int> infiniteEdgeParents(const GroupedEdges& grouped, InfiniteEdge infiniteEdge)
{
    std::vector<int> parent(grouped.offsets.size() - 1, -1);
    std::vector<int> queue {FlowNetwork::kSource};
    parent[FlowNetwork::kSource] = FlowNetwork::kSource;
    for (std::size_t next = 0; next < queue.size() && parent[FlowNetwork::kSink] < 0; ++next) {
        const auto v = static_cast<std::size_t>(queue[next]);
        for (auto k = grouped.offsets[v]; k < grouped.offsets[v + 1]; ++k) {
            const FlowNetwork::Edge* e = infiniteEdge(grouped.order[k]);
            if (e && parent[static_cast<std::size_t>(e->to)] < 0) {
                parent[static_cast<std::size_t>(e->to)] = static_cast<int>(v);
                queue.push_back(e->to);
            }
        }
    }
    return parent;
}

} // namespace

FlowNetwork::FlowNetwork(int vertexCount)
    : m_vertexCount(vertexCount)
{ }

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
    const auto vertices = static_cast<std::size_t>(m_vertexCount);
    const auto grouped = groupBySource(
        vertices, m_edges.size(), [&](std::size_t i) { return static_cast<std::size_t>(m_edges[i].from); });
    const auto parent = infiniteEdgeParents(
        grouped, [&](std::uint32_t i) { return m_edges[i].infinite ? &m_edges[i] : nullptr; });
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
    // Infinite edges get a capacity above every finite cut: the finite total plus one.
    Capacity finiteTotal = 0;
    for (const Edge& e : m_edges) {
        if (!e.infinite && __builtin_add_overflow(finiteTotal, e.capacity, &finiteTotal))
            throw Error("the flow network's capacities overflow 64 bits");
    }
    if (finiteTotal >= std::numeric_limits<Capacity>::max() / 4)
        throw Error("the flow network's capacities are too large to solve exactly");
    const Capacity infinity = finiteTotal + 1;

    // Arc 2i is edge i, arc 2i+1 its reverse (capacity 0). The CSR graph stores arcs grouped by
    // source, so the k-th stored arc is arcs[grouped.order[k]].
    const auto vertices = static_cast<std::size_t>(m_vertexCount);
    const std::size_t arcCount = 2 * m_edges.size();
    const auto arcSource = [&](std::size_t a) {
        const Edge& e = m_edges[a / 2];
        return static_cast<std::uint32_t>(a % 2 == 0 ? e.from : e.to);
    };
    const auto arcTarget = [&](std::size_t a) {
        const Edge& e = m_edges[a / 2];
        return static_cast<std::uint32_t>(a % 2 == 0 ? e.to : e.from);
    };
    const auto grouped = groupBySource(vertices, arcCount, arcSource);
    // No finite cut when infinite edges join source and sink (the flow would be unbounded):
    // checked first, on the grouped arcs, so that the flow never has to carry an "infinity".
    const auto overInfiniteEdges = infiniteEdgeParents(grouped, [&](std::uint32_t arc) {
        const Edge& e = m_edges[arc / 2];
        return arc % 2 == 0 && e.infinite ? &e : nullptr; // arc 2i is edge i, 2i+1 its reverse
    });
    if (overInfiniteEdges[kSink] >= 0)
        return std::nullopt;

    std::vector<std::pair<std::uint32_t, std::uint32_t>> sortedArcs(arcCount);
    std::vector<std::uint32_t> storedAt(arcCount); // arc -> position in the CSR graph
    for (std::size_t k = 0; k < arcCount; ++k) {
        const auto a = grouped.order[k];
        sortedArcs[k] = {arcSource(a), arcTarget(a)};
        storedAt[a] = static_cast<std::uint32_t>(k);
    }
    CsrGraph graph(boost::edges_are_sorted, sortedArcs.begin(), sortedArcs.end(), vertices);

    // The stored arc k is the descriptor (its source, k).
    std::vector<Capacity> capacity(arcCount, 0);
    std::vector<Capacity> residual(arcCount, 0);
    std::vector<EdgeDescriptor> reverse(arcCount);
    for (std::size_t i = 0; i < m_edges.size(); ++i) {
        const auto forward = storedAt[2 * i];
        const auto backward = storedAt[2 * i + 1];
        const Edge& e = m_edges[i];
        capacity[forward] = e.infinite ? infinity : e.capacity;
        reverse[forward] = EdgeDescriptor(static_cast<Vertex>(e.to), backward);
        reverse[backward] = EdgeDescriptor(static_cast<Vertex>(e.from), forward);
    }
    const auto edgeIndex = boost::get(boost::edge_index, graph);
    const auto vertexIndex = boost::get(boost::vertex_index, graph);
    std::vector<EdgeDescriptor> predecessor(vertices);
    std::vector<boost::default_color_type> color(vertices);
    std::vector<long> distance(vertices, 0);

    Cut cut;
    cut.value = boost::boykov_kolmogorov_max_flow(graph,
        boost::make_iterator_property_map(capacity.begin(), edgeIndex),
        boost::make_iterator_property_map(residual.begin(), edgeIndex),
        boost::make_iterator_property_map(reverse.begin(), edgeIndex),
        boost::make_iterator_property_map(predecessor.begin(), vertexIndex),
        boost::make_iterator_property_map(color.begin(), vertexIndex),
        boost::make_iterator_property_map(distance.begin(), vertexIndex), vertexIndex, Vertex(kSource),
        Vertex(kSink));

    // Sink side: vertices that reach the sink through arcs with residual capacity left.
    // Every arc into v is the reverse of one of v's out-arcs.
    cut.sinkSide.assign(vertices, 0);
    std::vector<Vertex> stack {Vertex(kSink)};
    cut.sinkSide[kSink] = 1;
    while (!stack.empty()) {
        const Vertex v = stack.back();
        stack.pop_back();
        for (auto [it, end] = boost::out_edges(v, graph); it != end; ++it) {
            const Vertex u = boost::target(*it, graph);
            const auto into = reverse[(*it).idx].idx; // u -> v (a CSR edge's index is its idx)
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
