// SPDX-License-Identifier: MIT
#include "partition/work_graph.h"

namespace remat {

WorkGraph::WorkGraph(const JointGraph& graph)
    : m_graph(&graph)
    , m_alive(graph.size(), 1)
    , m_replacement(graph.size())
{
    m_order.reserve(graph.size());
    for (std::size_t i = 0; i < graph.size(); ++i) {
        m_order.push_back(static_cast<NodeId>(i));
        m_replacement[i] = static_cast<NodeId>(i);
    }
    rebuild();
}

std::vector<NodeId> WorkGraph::positionalNodeArgs(NodeId n) const
{
    std::vector<NodeId> out;
    const Arg& args = m_graph->arg(node(n).args);
    for (const Arg& a : m_graph->children(args)) {
        if (a.kind == ArgKind::Node)
            out.push_back(resolve(a.node));
    }
    return out;
}

void WorkGraph::removeDead(const std::vector<char>& dead)
{
    std::erase_if(m_order, [&](NodeId n) { return dead[static_cast<std::size_t>(n)] != 0; });
    for (std::size_t i = 0; i < dead.size(); ++i) {
        if (dead[i]) {
            m_alive[i] = 0;
            m_replacement[i] = kNoNode;
        }
    }
    rebuild();
}

void WorkGraph::applyMerges(const std::vector<NodeId>& mergedInto)
{
    bool any = false;
    for (std::size_t i = 0; i < mergedInto.size(); ++i) {
        if (mergedInto[i] != kNoNode) {
            m_alive[i] = 0;
            m_replacement[i] = mergedInto[i];
            any = true;
        }
    }
    if (!any)
        return;
    // Earlier merges may point at nodes that were themselves merged later; follow to the end.
    for (auto& r : m_replacement) {
        while (r != kNoNode && m_replacement[static_cast<std::size_t>(r)] != r)
            r = m_replacement[static_cast<std::size_t>(r)];
    }
    std::erase_if(m_order, [&](NodeId n) { return !m_alive[static_cast<std::size_t>(n)]; });
    rebuild();
}

void WorkGraph::rebuild()
{
    const std::size_t count = m_graph->size();
    m_position.assign(count, -1);
    for (std::size_t p = 0; p < m_order.size(); ++p)
        m_position[static_cast<std::size_t>(m_order[p])] = static_cast<int>(p);

    // Inputs: the original inputs, substituted and de-duplicated.
    std::vector<std::uint32_t> inputOffsets(count + 1, 0);
    std::vector<NodeId> inputItems;
    std::vector<int> userCounts(count, 0);
    std::vector<NodeId> seenBy(count, kNoNode);
    std::size_t next = 0;
    for (NodeId n : m_order) {
        for (std::size_t i = next; i <= static_cast<std::size_t>(n); ++i)
            inputOffsets[i] = static_cast<std::uint32_t>(inputItems.size());
        for (NodeId raw : node(n).inputs) {
            const NodeId input = resolve(raw);
            if (input == kNoNode || seenBy[static_cast<std::size_t>(input)] == n)
                continue;
            seenBy[static_cast<std::size_t>(input)] = n;
            inputItems.push_back(input);
            ++userCounts[static_cast<std::size_t>(input)];
        }
        next = static_cast<std::size_t>(n) + 1;
    }
    for (std::size_t i = next; i <= count; ++i)
        inputOffsets[i] = static_cast<std::uint32_t>(inputItems.size());
    m_inputs.assign(std::move(inputOffsets), std::move(inputItems));

    // Users: every live consumer, in graph order.
    std::vector<std::uint32_t> userOffsets(count + 1, 0);
    for (std::size_t i = 0; i < count; ++i)
        userOffsets[i + 1] = userOffsets[i] + static_cast<std::uint32_t>(userCounts[i]);
    std::vector<NodeId> userItems(userOffsets[count]);
    std::vector<std::uint32_t> fill(userOffsets.begin(), userOffsets.end() - 1);
    for (NodeId n : m_order) {
        for (NodeId input : inputs(n))
            userItems[fill[static_cast<std::size_t>(input)]++] = n;
    }
    m_users.assign(std::move(userOffsets), std::move(userItems));

    m_fwdOutputs.clear();
    m_bwdOutputs.clear();
    const auto& outputs = m_graph->outputs();
    for (std::size_t i = 0; i < outputs.size(); ++i) {
        const NodeId out = outputs[i] == kNoNode ? kNoNode : resolve(outputs[i]);
        (static_cast<int>(i) < m_graph->numFwdOutputs() ? m_fwdOutputs : m_bwdOutputs).push_back(out);
    }
}

} // namespace remat
