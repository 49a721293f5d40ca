// SPDX-License-Identifier: MIT
#pragma once

#include "graph/joint_graph.h"

#include <string>
#include <vector>

namespace remat::devices {

/// The graph the accelerator partitioner splits: a forward-only graph as torch.fx.symbolic_trace
/// makes it, or the forward part of a joint graph (the non-tangent inputs and every node the
/// forward outputs need). Node ids are the underlying graph's; the output node is left out.
class ForwardGraph {
public:
    explicit ForwardGraph(const JointGraph& graph);

    const JointGraph& graph() const { return m_graph; }
    /// Forward nodes in graph order, without the output node.
    const std::vector<NodeId>& nodes() const { return m_nodes; }
    bool contains(NodeId n) const { return m_member[static_cast<std::size_t>(n)]; }
    /// Distinct inputs in first-use order (what torch.fx's map_arg visits).
    const std::vector<NodeId>& inputs(NodeId n) const { return m_graph.node(n).inputs; }
    /// Users among the forward nodes (the output node is in no partition, so it never matters).
    const std::vector<NodeId>& users(NodeId n) const { return m_users[static_cast<std::size_t>(n)]; }
    /// The values the forward returns, in order (nodes only).
    const std::vector<NodeId>& outputs() const { return m_outputs; }

    /// call_module, call_method or call_function: what PyTorch's partitioner calls an op node.
    bool isOp(NodeId n) const;
    /// placeholder or get_attr: inputs a partition takes along with the nodes that use them.
    bool isInputOrConstant(NodeId n) const;
    const std::string& name(NodeId n) const { return m_graph.node(n).name; }
    /// The target as written in the file ("linear", "_operator.add", "add").
    const std::string& target(NodeId n) const { return m_graph.opOf(n).target; }

private:
    const JointGraph& m_graph;
    std::vector<NodeId> m_nodes;
    std::vector<bool> m_member;
    std::vector<std::vector<NodeId>> m_users;
    std::vector<NodeId> m_outputs;
};

} // namespace remat::devices
