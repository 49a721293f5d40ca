// SPDX-License-Identifier: MIT
#pragma once

#include "partition/flow_network.h"

#include <deque>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

namespace remat {

/// Minimum cuts of one flow network to which some extra infinite source edges are added, many
/// times over. The base network's maximum flow is computed once; each solve adds its source edges
/// and resumes from that flow (adding capacity keeps a flow feasible), so it only augments what the
/// new edges open. The cut read is the one FlowNetwork::minimumCut returns (closest to the sink,
/// unique for any maximum flow), with the same stand-in for infinity (finite total + 1).
/// Recent maximum flows are kept too: a solve resumes from the one whose source edges are
/// the largest subset of its own (neighbouring budgets of a sweep differ by a few edges).
class WarmMinCut {
public:
    using Capacity = FlowNetwork::Capacity;

    /// `sourceTargets`: the vertices that may get an infinite edge from the source.
    WarmMinCut(const FlowNetwork& network, std::span<const int> sourceTargets);

    struct Cut {
        bool bounded = true; ///< false: a path of infinite edges joins source and sink
        Capacity value = 0;
        std::vector<char> sinkSide; ///< per vertex
    };
    /// `enabled[k]`: add the source edge to sourceTargets[k]. Thread-safe (const).
    Cut solve(std::span<const char> enabled) const;

private:
    /// A maximum flow, and the vertices the source reaches in its residual network. No augmenting
    /// path can pass through those once more source edges are added (they cannot reach the sink,
    /// and augmenting elsewhere never changes their arcs), so a resumed solve never searches them.
    struct Flow {
        std::vector<char> enabled;
        std::vector<Capacity> residual;
        std::vector<char> reached;
        Capacity value = 0;
    };
    static constexpr std::size_t kKeptFlows = 16; ///< knapsack choices do not grow in step with the budget

    Capacity augment(std::vector<Capacity>& residual, std::vector<char>& reached,
        std::span<const std::uint32_t> sourceArcs, Capacity already) const;
    std::shared_ptr<const Flow> closestFlow(std::span<const char> enabled) const;
    void keep(std::shared_ptr<const Flow> flow) const;

    int m_vertices = 0;
    std::vector<std::uint32_t> m_head; ///< per vertex, into the arcs grouped by tail
    std::vector<int> m_to;
    std::vector<std::uint32_t> m_reverse;
    std::vector<std::uint32_t> m_sourceArc; ///< per source target
    Flow m_base;
    Capacity m_infinity = 0;
    bool m_baseBounded = true;
    mutable std::mutex m_keptMutex;
    mutable std::deque<std::shared_ptr<const Flow>> m_kept; ///< most recent first
};

} // namespace remat
