// SPDX-License-Identifier: MIT
#include "budget/backward_order.h"

#include "analysis/node_roles.h"

#include <algorithm>
#include <limits>

namespace remat {

BackwardOrderer::BackwardOrderer(const WorkGraph& graph)
    : m_graph(&graph)
    , m_isPlaceholder(graph.graph().size(), 0)
{
    const JointGraph& joint = graph.graph();
    for (std::size_t i = 0; i < joint.size(); ++i) {
        const auto n = static_cast<NodeId>(i);
        m_isPlaceholder[i] = joint.node(n).op == NodeOp::Placeholder;
        if (isTangent(joint, n))
            m_tangents.push_back(n);
        if (joint.opOf(n).target == "aten.copy_.default")
            m_copies.push_back(n);
    }
}

std::vector<NodeId> BackwardOrderer::order(const PartitionResult& result) const
{
    const WorkGraph& graph = *m_graph;
    const auto& nodes = result.bwNodes;
    const std::size_t count = m_isPlaceholder.size();
    // Scratch reused by each thread. index: position in `nodes`, kAbsent for nodes not in the
    // backward graph. ready: emitted already, or not in the backward graph (nothing to emit).
    constexpr int kAbsent = -1;
    thread_local std::vector<int> index;
    thread_local std::vector<char> ready;
    thread_local std::vector<NodeId> pending;
    thread_local std::vector<NodeId> collected;
    index.assign(count, kAbsent);
    ready.assign(count, 1);
    const auto isReady = [&](NodeId n) { return ready[static_cast<std::size_t>(n)] != 0; };

    // The backward graph's placeholders come first: saved values and tangents (joint placeholders).
    constexpr char kSaved = 2; // ready as long as it is not in the backward graph
    for (NodeId n : result.savedValues)
        ready[static_cast<std::size_t>(n)] = kSaved;
    std::vector<NodeId> out;
    out.reserve(nodes.size());
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        const auto n = static_cast<std::size_t>(nodes[i]);
        index[n] = static_cast<int>(i);
        if (ready[n] == kSaved || m_isPlaceholder[n]) {
            ready[n] = 1;
            out.push_back(nodes[i]);
        } else {
            ready[n] = 0;
        }
    }

    int firstBackward = std::numeric_limits<int>::max();
    for (NodeId n : m_tangents) {
        if (index[static_cast<std::size_t>(n)] == kAbsent)
            continue;
        for (NodeId user : graph.users(n)) {
            const int o = index[static_cast<std::size_t>(user)];
            if (o != kAbsent && o < firstBackward)
                firstBackward = o;
        }
    }
    if (firstBackward == std::numeric_limits<int>::max())
        return nodes; // the gradients do not depend on the tangents: unchanged

    // What `start` needs that is not there yet, then `start`: in their order in the graph.
    const auto emitWithInputs = [&](NodeId start) {
        pending.assign(1, start);
        collected.clear();
        while (!pending.empty()) {
            const NodeId n = pending.back();
            pending.pop_back();
            if (isReady(n))
                continue;
            ready[static_cast<std::size_t>(n)] = 1;
            collected.push_back(n);
            for (NodeId input : graph.inputs(n)) {
                if (!isReady(input))
                    pending.push_back(input);
            }
        }
        std::sort(collected.begin(), collected.end(), [&](NodeId a, NodeId b) {
            return index[static_cast<std::size_t>(a)] < index[static_cast<std::size_t>(b)];
        });
        out.insert(out.end(), collected.begin(), collected.end());
    };
    const auto insert = [&](NodeId start) {
        if (isReady(start))
            return;
        // The common case: everything it needs is already there.
        const auto inputs = graph.inputs(start);
        if (std::all_of(inputs.begin(), inputs.end(), isReady)) {
            ready[static_cast<std::size_t>(start)] = 1;
            out.push_back(start);
        } else {
            emitWithInputs(start);
        }
    };
    // Before the first user of a tangent, only copy_ nodes (and what they need), in their order.
    std::vector<std::pair<int, NodeId>> early;
    for (NodeId n : m_copies) {
        const int i = index[static_cast<std::size_t>(n)];
        if (i != kAbsent && i < firstBackward)
            early.emplace_back(i, n);
    }
    std::sort(early.begin(), early.end());
    for (const auto& copy : early)
        insert(copy.second);
    for (std::size_t i = static_cast<std::size_t>(firstBackward); i < nodes.size(); ++i)
        insert(nodes[i]);
    return out;
}

} // namespace remat
