// SPDX-License-Identifier: MIT
#include "devices/forward_graph.h"

#include "analysis/node_roles.h"

namespace remat::devices {

ForwardGraph::ForwardGraph(const JointGraph& graph)
    : m_graph(graph)
    , m_member(graph.size(), false)
    , m_users(graph.size())
{
    for (NodeId out : graph.fwdOutputs()) {
        if (out != kNoNode)
            m_outputs.push_back(out);
    }
    if (graph.kind() == GraphKind::Forward) {
        for (NodeId n = 0; n < static_cast<NodeId>(graph.size()); ++n)
            m_member[static_cast<std::size_t>(n)] = graph.node(n).op != NodeOp::Output;
    } else {
        // A joint graph: what the forward outputs need, walking back from them (nodes come in
        // topological order, so one reverse sweep finds every ancestor), plus every primal.
        for (NodeId out : m_outputs)
            m_member[static_cast<std::size_t>(out)] = true;
        for (NodeId n = static_cast<NodeId>(graph.size()) - 1; n >= 0; --n) {
            if (isPrimal113(graph, n))
                m_member[static_cast<std::size_t>(n)] = true;
            if (!m_member[static_cast<std::size_t>(n)])
                continue;
            for (NodeId input : graph.node(n).inputs)
                m_member[static_cast<std::size_t>(input)] = true;
        }
    }
    for (NodeId n = 0; n < static_cast<NodeId>(graph.size()); ++n) {
        if (!m_member[static_cast<std::size_t>(n)])
            continue;
        m_nodes.push_back(n);
        for (NodeId user : graph.node(n).users) {
            if (m_member[static_cast<std::size_t>(user)] && graph.node(user).op != NodeOp::Output)
                m_users[static_cast<std::size_t>(n)].push_back(user);
        }
    }
}

bool ForwardGraph::isOp(NodeId n) const
{
    const NodeOp op = m_graph.node(n).op;
    return op == NodeOp::CallFunction || op == NodeOp::CallModule || op == NodeOp::CallMethod;
}

bool ForwardGraph::isInputOrConstant(NodeId n) const
{
    const NodeOp op = m_graph.node(n).op;
    return op == NodeOp::Placeholder || op == NodeOp::GetAttr;
}

} // namespace remat::devices
