// SPDX-License-Identifier: MIT
#include "partition/extraction.h"

#include "graph/error.h"

#include <algorithm>

namespace remat {

Extractor::Extractor(const WorkGraph& graph, const ExtractionRules& rules)
    : m_graph(&graph)
    , m_graphName(rules.graphName)
    , m_kind(graph.graph().size(), kUnavailable)
    , m_impure(graph.graph().size(), 0)
{
    const JointGraph& joint = graph.graph();
    for (NodeId n : graph.order()) {
        const auto i = static_cast<std::size_t>(n);
        if (rules.impure && (*rules.impure)[i]) {
            m_impure[i] = 1;
            m_impureNodes.push_back(n);
        }
        if (rules.forbidden && (*rules.forbidden)[i])
            continue;
        switch (joint.node(n).op) {
        case NodeOp::Placeholder:
        case NodeOp::Output:
            break;
        case NodeOp::GetAttr:
            m_kind[i] = kAlwaysAvailable;
            break;
        default:
            m_kind[i] = kIfInputsAre;
        }
    }
}

void Extractor::availability(std::span<const NodeId> inputs, std::vector<std::uint8_t>& state) const
{
    state.assign(m_kind.size(), 0);
    for (NodeId n : inputs)
        state[static_cast<std::size_t>(n)] = kInputNode | kAvailableNode;
    for (NodeId n : m_graph->order()) {
        const auto i = static_cast<std::size_t>(n);
        if (state[i] != 0)
            continue; // an input: nothing else is set before its turn
        switch (m_kind[i]) {
        case kUnavailable:
            break;
        case kAlwaysAvailable:
            state[i] = kAvailableNode;
            break;
        default: {
            const auto nodeInputs = m_graph->inputs(n);
            if (std::all_of(nodeInputs.begin(), nodeInputs.end(), [&](NodeId input) {
                    return (state[static_cast<std::size_t>(input)] & kAvailableNode) != 0;
                }))
                state[i] = kAvailableNode;
        }
        }
    }
}

void Extractor::extract(std::span<const std::uint8_t> available, std::span<const NodeId> inputs,
    std::span<const NodeId> outputs, ExtractedGraph& out) const
{
    const WorkGraph& graph = *m_graph;
    const auto isInput = [&](NodeId n) { return (available[static_cast<std::size_t>(n)] & kInputNode) != 0; };
    const auto isAvailable
        = [&](NodeId n) { return (available[static_cast<std::size_t>(n)] & kAvailableNode) != 0; };
    for (NodeId o : outputs) {
        if (o != kNoNode && !isAvailable(o))
            throw Error("the " + m_graphName + " graph must output '" + graph.node(o).name
                + "', but it cannot be computed from that graph's inputs");
    }
    // What the outputs and the impure nodes need, in one sweep against graph order: a node's
    // inputs come before it, so all its users have been seen when the sweep reaches it.
    out.contains.assign(m_kind.size(), 0);
    auto& keep = out.contains;
    int last = -1;
    for (NodeId o : outputs) {
        if (o != kNoNode) {
            keep[static_cast<std::size_t>(o)] = 1;
            last = std::max(last, graph.position(o));
        }
    }
    for (NodeId n : m_impureNodes) {
        if (isAvailable(n) && !isInput(n))
            last = std::max(last, graph.position(n));
    }
    thread_local std::vector<NodeId> computed; // kept non-inputs, in reverse graph order
    computed.clear();
    const auto& order = graph.order();
    for (int p = last; p >= 0; --p) {
        const NodeId n = order[static_cast<std::size_t>(p)];
        const auto i = static_cast<std::size_t>(n);
        if (isInput(n))
            continue;
        if (!keep[i]) {
            if (!m_impure[i] || !isAvailable(n))
                continue;
            keep[i] = 1;
        }
        computed.push_back(n);
        for (NodeId input : graph.inputs(n))
            keep[static_cast<std::size_t>(input)] = 1;
    }

    // keep now says which inputs are used; it becomes `contains` (2 marks an input already listed).
    out.nodes.clear();
    out.unusedInputs.clear();
    out.nodes.reserve(inputs.size() + computed.size());
    for (NodeId n : inputs) {
        const auto i = static_cast<std::size_t>(n);
        if (keep[i] == 2)
            continue; // an input listed twice is one placeholder
        out.nodes.push_back(n);
        if (!keep[i])
            out.unusedInputs.push_back(n);
        keep[i] = 2;
    }
    for (NodeId n : inputs)
        keep[static_cast<std::size_t>(n)] = 1;
    out.nodes.insert(out.nodes.end(), computed.rbegin(), computed.rend());
}

ExtractedGraph extractSubgraph(const WorkGraph& graph, std::span<const NodeId> inputs,
    std::span<const NodeId> outputs, const ExtractionRules& rules)
{
    const Extractor extractor(graph, rules);
    std::vector<std::uint8_t> state;
    extractor.availability(inputs, state);
    ExtractedGraph result;
    extractor.extract(state, inputs, outputs, result);
    return result;
}

} // namespace remat
