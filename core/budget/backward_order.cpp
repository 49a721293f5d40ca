// SPDX-License-Identifier: MIT
#include "budget/backward_order.h"

#include "analysis/node_roles.h"

#include <algorithm>
#include <limits>

namespace remat {

std::vector<NodeId> autogradBackwardOrder(const WorkGraph& graph, const PartitionResult& result)
{
    const JointGraph& joint = graph.graph();
    const auto& nodes = result.bwNodes;
    constexpr int kAbsent = -1;
    std::vector<int> order(joint.size(), kAbsent);
    for (std::size_t i = 0; i < nodes.size(); ++i)
        order[static_cast<std::size_t>(nodes[i])] = static_cast<int>(i);

    // The backward graph's placeholders: saved values and tangents (joint placeholders).
    std::vector<char> saved(joint.size(), 0);
    for (NodeId n : result.savedValues)
        saved[static_cast<std::size_t>(n)] = 1;
    std::vector<char> emitted(joint.size(), 0);
    std::vector<NodeId> out;
    out.reserve(nodes.size());
    for (NodeId n : nodes) {
        if (saved[static_cast<std::size_t>(n)] || joint.node(n).op == NodeOp::Placeholder) {
            emitted[static_cast<std::size_t>(n)] = 1;
            out.push_back(n);
        }
    }

    int firstBackward = std::numeric_limits<int>::max();
    for (NodeId n : nodes) {
        if (!isTangent(joint, n))
            continue;
        for (NodeId user : graph.users(n)) {
            const int o = order[static_cast<std::size_t>(user)];
            if (o != kAbsent && o < firstBackward)
                firstBackward = o;
        }
    }
    if (firstBackward == std::numeric_limits<int>::max())
        return nodes; // the gradients do not depend on the tangents: unchanged

    std::vector<NodeId> pending;
    std::vector<NodeId> collected;
    const auto insert = [&](NodeId start) {
        if (emitted[static_cast<std::size_t>(start)] || order[static_cast<std::size_t>(start)] == kAbsent)
            return;
        // The common case: everything it needs is already there.
        const auto inputs = graph.inputs(start);
        if (std::all_of(inputs.begin(), inputs.end(), [&](NodeId i) {
                return emitted[static_cast<std::size_t>(i)] || order[static_cast<std::size_t>(i)] == kAbsent;
            })) {
            emitted[static_cast<std::size_t>(start)] = 1;
            out.push_back(start);
            return;
        }
        pending.assign(1, start);
        collected.clear();
        while (!pending.empty()) {
            const NodeId n = pending.back();
            pending.pop_back();
            if (emitted[static_cast<std::size_t>(n)] || order[static_cast<std::size_t>(n)] == kAbsent)
                continue;
            emitted[static_cast<std::size_t>(n)] = 1;
            collected.push_back(n);
            for (NodeId input : graph.inputs(n))
                pending.push_back(input);
        }
        std::sort(collected.begin(), collected.end(), [&](NodeId a, NodeId b) {
            return order[static_cast<std::size_t>(a)] < order[static_cast<std::size_t>(b)];
        });
        out.insert(out.end(), collected.begin(), collected.end());
    };
    for (int i = 0; i < firstBackward; ++i) {
        const NodeId n = nodes[static_cast<std::size_t>(i)];
        if (joint.opOf(n).target == "aten.copy_.default" && !emitted[static_cast<std::size_t>(n)])
            insert(n);
    }
    for (std::size_t i = static_cast<std::size_t>(firstBackward); i < nodes.size(); ++i)
        insert(nodes[i]);
    return out;
}

} // namespace remat
