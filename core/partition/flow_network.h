// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace remat {

/// A directed flow network with integer capacities and "infinite" edges, and its minimum cut.
/// The cut returned is the one networkx.minimum_cut returns, which PyTorch's partitioner reads:
/// the sink side is every vertex that can still reach the sink in the residual network of a
/// maximum flow (the minimum cut closest to the sink, the same for every maximum flow).
class FlowNetwork {
public:
    using Capacity = std::int64_t;
    static constexpr int kSource = 0;
    static constexpr int kSink = 1;

    explicit FlowNetwork(int vertexCount);

    int vertexCount() const { return m_vertexCount; }
    void reserveEdges(std::size_t count) { m_edges.reserve(count); }
    /// Each (from, to) pair must be added at most once.
    void addEdge(int from, int to, Capacity capacity);
    void addInfiniteEdge(int from, int to);

    struct Edge {
        int from;
        int to;
        Capacity capacity;
        bool infinite;
    };
    const std::vector<Edge>& edges() const { return m_edges; }

    struct Cut {
        Capacity value = 0;
        std::vector<char> sinkSide; ///< per vertex
        std::vector<int> cutEdges; ///< indices into edges(): source side -> sink side
    };
    /// Throws remat::Error if the sum of finite capacities overflows 64 bits.
    /// Returns nullopt when a path of infinite edges joins source and sink (no finite cut);
    /// infinitePath() then names it.
    std::optional<Cut> minimumCut() const;
    /// Vertices of a source-to-sink path of infinite edges, or empty if none.
    std::vector<int> infinitePath() const;

private:
    int m_vertexCount;
    std::vector<Edge> m_edges;
};

} // namespace remat
