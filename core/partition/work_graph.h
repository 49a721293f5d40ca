// SPDX-License-Identifier: MIT
#pragma once

#include "graph/joint_graph.h"

#include <span>
#include <vector>

namespace remat {

/// Node lists in compressed form: items of node n are items[offsets[n] .. offsets[n+1]).
class Adjacency {
public:
    std::span<const NodeId> of(NodeId n) const
    {
        const auto i = static_cast<std::size_t>(n);
        return {m_items.data() + m_offsets[i], m_offsets[i + 1] - m_offsets[i]};
    }
    void assign(std::vector<std::uint32_t> offsets, std::vector<NodeId> items)
    {
        m_offsets = std::move(offsets);
        m_items = std::move(items);
    }

private:
    std::vector<std::uint32_t> m_offsets {0};
    std::vector<NodeId> m_items;
};

/// The joint graph as a partitioner sees it after dead-code elimination and CSE: the same node ids,
/// some of them gone, the rest rewired. The JointGraph itself is never modified.
class WorkGraph {
public:
    explicit WorkGraph(const JointGraph& graph);

    const JointGraph& graph() const { return *m_graph; }
    const Node& node(NodeId n) const { return m_graph->node(n); }
    /// Live nodes in graph order, the output node last.
    const std::vector<NodeId>& order() const { return m_order; }
    bool alive(NodeId n) const { return m_alive[static_cast<std::size_t>(n)] != 0; }
    /// Distinct inputs after CSE substitution, in first-use order.
    std::span<const NodeId> inputs(NodeId n) const { return m_inputs.of(n); }
    /// Top-level positional args that are nodes, with repeats (what 1.13's reduction rule sums).
    std::vector<NodeId> positionalNodeArgs(NodeId n) const;
    /// Distinct live consumers in graph order (the output node included).
    std::span<const NodeId> users(NodeId n) const { return m_users.of(n); }
    const std::vector<NodeId>& fwdOutputs() const { return m_fwdOutputs; }
    const std::vector<NodeId>& bwdOutputs() const { return m_bwdOutputs; }
    NodeId outputNode() const { return m_graph->outputNode(); }
    /// The node a reference to n now means: n itself, or the node CSE merged it into.
    NodeId resolve(NodeId n) const { return m_replacement[static_cast<std::size_t>(n)]; }
    int position(NodeId n) const { return m_position[static_cast<std::size_t>(n)]; }

    /// Removes nodes without users (reverse order, so chains go too) unless `keep` says otherwise.
    /// Returns the removed nodes in graph order.
    template <typename KeepPredicate> std::vector<NodeId> eliminateDeadCode(KeepPredicate keep);
    /// Replaces each merged node by its kept twin: mergedInto[n] is kNoNode or the kept node.
    void applyMerges(const std::vector<NodeId>& mergedInto);

private:
    void rebuild();
    void removeDead(const std::vector<char>& dead);

    const JointGraph* m_graph;
    std::vector<NodeId> m_order;
    std::vector<char> m_alive;
    std::vector<NodeId> m_replacement;
    std::vector<int> m_position;
    Adjacency m_inputs;
    Adjacency m_users;
    std::vector<NodeId> m_fwdOutputs;
    std::vector<NodeId> m_bwdOutputs;
};

template <typename KeepPredicate> std::vector<NodeId> WorkGraph::eliminateDeadCode(KeepPredicate keep)
{
    std::vector<int> userCount(m_graph->size(), 0);
    for (NodeId n : m_order)
        userCount[static_cast<std::size_t>(n)] = static_cast<int>(users(n).size());
    std::vector<char> dead(m_graph->size(), 0);
    std::vector<NodeId> removed;
    for (auto it = m_order.rbegin(); it != m_order.rend(); ++it) {
        const NodeId n = *it;
        if (userCount[static_cast<std::size_t>(n)] > 0 || keep(n))
            continue;
        dead[static_cast<std::size_t>(n)] = 1;
        removed.push_back(n);
        for (NodeId input : inputs(n))
            --userCount[static_cast<std::size_t>(input)];
    }
    if (!removed.empty())
        removeDead(dead);
    return {removed.rbegin(), removed.rend()};
}

} // namespace remat
