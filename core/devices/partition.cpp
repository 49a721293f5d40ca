// SPDX-License-Identifier: MIT
#include "devices/partition.h"

#include <algorithm>

namespace remat::devices {

void Partition::recalculateMemSize(const SizedGraph& graph)
{
    usedMemBytes = 0;
    for (NodeId n : nodes)
        usedMemBytes += graph.extraSizeOf(n, nodes);
}

void Partition::addNode(NodeId n, const SizedGraph& graph)
{
    const ForwardGraph& fwd = graph.graph();
    for (NodeId input : fwd.inputs(n)) {
        if (fwd.isInputOrConstant(input))
            nodes.insert(input);
    }
    nodes.insert(n);
    recalculateMemSize(graph);
}

void Partition::removeNode(NodeId n, const SizedGraph& graph)
{
    if (!nodes.contains(n))
        return;
    nodes.erase(n);
    const ForwardGraph& fwd = graph.graph();
    for (NodeId input : fwd.inputs(n)) {
        const auto& users = fwd.users(input);
        const bool stillUsed
            = std::any_of(users.begin(), users.end(), [&](NodeId u) { return nodes.contains(u); });
        if (!stillUsed && fwd.isInputOrConstant(input))
            nodes.erase(input);
    }
    recalculateMemSize(graph);
}

} // namespace remat::devices
