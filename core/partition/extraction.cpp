// SPDX-License-Identifier: MIT
#include "partition/extraction.h"

#include "graph/error.h"

namespace remat {

ExtractedGraph extractSubgraph(const WorkGraph& graph, std::span<const NodeId> inputs,
                               std::span<const NodeId> outputs, const ExtractionRules& rules)
{
    const JointGraph& joint = graph.graph();
    const std::size_t count = joint.size();
    enum : std::uint8_t { Input = 1, Valid = 2, Keep = 4 };
    // One byte of state per node, reused across calls on this thread: the memory-budget sweep
    // extracts thousands of graphs.
    thread_local std::vector<std::uint8_t> state;
    state.assign(count, 0);
    for (NodeId n : inputs)
        state[static_cast<std::size_t>(n)] = Input | Valid;
    for (NodeId n : graph.order()) {
        const auto i = static_cast<std::size_t>(n);
        if (state[i] & Input)
            continue;
        if (rules.forbidden && (*rules.forbidden)[i])
            continue;
        switch (joint.node(n).op) {
        case NodeOp::Placeholder:
        case NodeOp::Output:
            break;
        case NodeOp::GetAttr:
            state[i] |= Valid;
            break;
        default: {
            bool ok = true;
            for (NodeId input : graph.inputs(n)) {
                if (!(state[static_cast<std::size_t>(input)] & Valid)) {
                    ok = false;
                    break;
                }
            }
            if (ok)
                state[i] |= Valid;
        }
        }
    }

    // Dead-code elimination: keep what the outputs and the impure nodes need.
    std::vector<NodeId> stack;
    const auto need = [&](NodeId n) {
        auto& s = state[static_cast<std::size_t>(n)];
        if (!(s & Keep)) {
            s |= Keep;
            stack.push_back(n);
        }
    };
    for (NodeId out : outputs) {
        if (out == kNoNode)
            continue;
        if (!(state[static_cast<std::size_t>(out)] & Valid))
            throw Error("the " + std::string(rules.graphName) + " graph must output '" + joint.node(out).name
                        + "', but it cannot be computed from that graph's inputs");
        need(out);
    }
    if (rules.impure) {
        for (NodeId n : graph.order()) {
            const auto i = static_cast<std::size_t>(n);
            if ((state[i] & (Valid | Input)) == Valid && (*rules.impure)[i])
                need(n);
        }
    }
    while (!stack.empty()) {
        const NodeId n = stack.back();
        stack.pop_back();
        if (state[static_cast<std::size_t>(n)] & Input)
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
        if (!(state[static_cast<std::size_t>(n)] & Keep))
            result.unusedInputs.push_back(n);
    }
    for (NodeId n : graph.order()) {
        const auto i = static_cast<std::size_t>(n);
        if ((state[i] & (Keep | Input)) == Keep) {
            result.contains[i] = 1;
            result.nodes.push_back(n);
        }
    }
    return result;
}

} // namespace remat
