// SPDX-License-Identifier: MIT
#include "partition/extraction.h"

#include "graph/error.h"

namespace remat {

ExtractedGraph extractSubgraph(const WorkGraph& graph, std::span<const NodeId> inputs,
                               std::span<const NodeId> outputs, const ExtractionRules& rules)
{
    const JointGraph& joint = graph.graph();
    const std::size_t count = joint.size();
    std::vector<char> isInput(count, 0);
    std::vector<char> valid(count, 0);
    for (NodeId n : inputs) {
        isInput[static_cast<std::size_t>(n)] = 1;
        valid[static_cast<std::size_t>(n)] = 1;
    }
    for (NodeId n : graph.order()) {
        const auto i = static_cast<std::size_t>(n);
        if (isInput[i])
            continue;
        if (rules.forbidden && rules.forbidden(n))
            continue;
        switch (joint.node(n).op) {
        case NodeOp::Placeholder:
        case NodeOp::Output:
            break;
        case NodeOp::GetAttr:
            valid[i] = 1;
            break;
        default: {
            bool ok = true;
            for (NodeId input : graph.inputs(n))
                ok = ok && valid[static_cast<std::size_t>(input)];
            valid[i] = ok;
        }
        }
    }

    // Dead-code elimination: keep what the outputs and the impure nodes need.
    std::vector<char> keep(count, 0);
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
        if (!valid[static_cast<std::size_t>(out)])
            throw Error("the " + std::string(rules.graphName) + " graph must output '" + joint.node(out).name
                        + "', but it cannot be computed from that graph's inputs");
        need(out);
    }
    if (rules.impure) {
        for (NodeId n : graph.order()) {
            if (valid[static_cast<std::size_t>(n)] && !isInput[static_cast<std::size_t>(n)] && rules.impure(n))
                need(n);
        }
    }
    while (!stack.empty()) {
        const NodeId n = stack.back();
        stack.pop_back();
        if (isInput[static_cast<std::size_t>(n)])
            continue;
        for (NodeId input : graph.inputs(n))
            need(input);
    }

    ExtractedGraph result;
    result.contains.assign(count, 0);
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
        if (keep[i] && !isInput[i]) {
            result.contains[i] = 1;
            result.nodes.push_back(n);
        }
    }
    return result;
}

} // namespace remat
