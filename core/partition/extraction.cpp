// SPDX-License-Identifier: MIT
#include "partition/extraction.h"

#include "graph/error.h"

namespace remat {

std::vector<std::uint8_t> availability(const WorkGraph& graph, std::span<const NodeId> inputs,
                                       const ExtractionRules& rules)
{
    const JointGraph& joint = graph.graph();
    std::vector<std::uint8_t> state(joint.size(), 0);
    for (NodeId n : inputs)
        state[static_cast<std::size_t>(n)] = kInputNode | kAvailableNode;
    for (NodeId n : graph.order()) {
        const auto i = static_cast<std::size_t>(n);
        if (state[i] & kInputNode)
            continue;
        if (rules.forbidden && (*rules.forbidden)[i])
            continue;
        switch (joint.node(n).op) {
        case NodeOp::Placeholder:
        case NodeOp::Output:
            break;
        case NodeOp::GetAttr:
            state[i] |= kAvailableNode;
            break;
        default: {
            bool ok = true;
            for (NodeId input : graph.inputs(n)) {
                if (!(state[static_cast<std::size_t>(input)] & kAvailableNode)) {
                    ok = false;
                    break;
                }
            }
            if (ok)
                state[i] |= kAvailableNode;
        }
        }
    }
    return state;
}

ExtractedGraph extractAvailable(const WorkGraph& graph, std::span<const std::uint8_t> available,
                                std::span<const NodeId> inputs, std::span<const NodeId> outputs,
                                const ExtractionRules& rules)
{
    const JointGraph& joint = graph.graph();
    const std::size_t count = joint.size();
    // Which nodes the outputs and the impure nodes need; reused across calls on this thread: the
    // memory-budget sweep extracts thousands of graphs.
    thread_local std::vector<char> keep;
    keep.assign(count, 0);
    const auto isInput = [&](NodeId n) { return (available[static_cast<std::size_t>(n)] & kInputNode) != 0; };
    const auto isAvailable = [&](NodeId n) { return (available[static_cast<std::size_t>(n)] & kAvailableNode) != 0; };
    std::vector<NodeId> stack;
    const auto need = [&](NodeId n) {
        if (!keep[static_cast<std::size_t>(n)]) {
            keep[static_cast<std::size_t>(n)] = 1;
            stack.push_back(n);
        }
    };
    for (NodeId out : outputs) {
        if (out == kNoNode)
            continue;
        if (!isAvailable(out))
            throw Error("the " + std::string(rules.graphName) + " graph must output '" + joint.node(out).name
                        + "', but it cannot be computed from that graph's inputs");
        need(out);
    }
    if (rules.impure) {
        for (NodeId n : graph.order()) {
            if (isAvailable(n) && !isInput(n) && (*rules.impure)[static_cast<std::size_t>(n)])
                need(n);
        }
    }
    while (!stack.empty()) {
        const NodeId n = stack.back();
        stack.pop_back();
        if (isInput(n))
            continue;
        for (NodeId input : graph.inputs(n))
            need(input);
    }

    ExtractedGraph result;
    result.contains.assign(count, 0);
    result.nodes.reserve(inputs.size() + 64);
    for (NodeId n : inputs) {
        if (result.contains[static_cast<std::size_t>(n)])
            continue; // an input listed twice is one placeholder
        result.contains[static_cast<std::size_t>(n)] = 1;
        result.nodes.push_back(n);
        if (!keep[static_cast<std::size_t>(n)])
            result.unusedInputs.push_back(n);
    }
    for (NodeId n : graph.order()) {
        const auto i = static_cast<std::size_t>(n);
        if (keep[i] && !isInput(n)) {
            result.contains[i] = 1;
            result.nodes.push_back(n);
        }
    }
    return result;
}

ExtractedGraph extractSubgraph(const WorkGraph& graph, std::span<const NodeId> inputs,
                               std::span<const NodeId> outputs, const ExtractionRules& rules)
{
    return extractAvailable(graph, availability(graph, inputs, rules), inputs, outputs, rules);
}

} // namespace remat
