// SPDX-License-Identifier: MIT
#include "model/graph_regions.h"

#include "analysis/node_roles.h"

namespace remat::ui {

Side sideOf(Region region)
{
    switch (region) {
    case Region::Primal:
    case Region::Forward:
        return Side::Forward;
    default:
        return Side::Backward;
    }
}

const char* regionName(Region region)
{
    switch (region) {
    case Region::Primal:
        return "primal input";
    case Region::Tangent:
        return "tangent";
    case Region::Forward:
        return "forward";
    case Region::Backward:
        return "backward";
    case Region::Unclaimed:
        return "unclaimed (needed only by the backward)";
    case Region::Output:
        return "output";
    }
    return "";
}

GraphRegions computeRegions(const JointGraph& graph)
{
    const std::size_t n = graph.size();
    GraphRegions result;
    result.region.assign(n, Region::Unclaimed);

    // Forward: ancestors of the forward outputs (a forward-only graph: of every output).
    std::vector<char> forward(n, 0);
    std::vector<NodeId> stack;
    const auto outputs
        = graph.kind() == GraphKind::Forward ? std::span<const NodeId>(graph.outputs()) : graph.fwdOutputs();
    for (NodeId o : outputs) {
        if (o != kNoNode)
            stack.push_back(o);
    }
    while (!stack.empty()) {
        const NodeId v = stack.back();
        stack.pop_back();
        if (forward[static_cast<std::size_t>(v)])
            continue;
        forward[static_cast<std::size_t>(v)] = 1;
        for (NodeId in : graph.node(v).inputs)
            stack.push_back(in);
    }

    // Backward: downstream of a tangent; nodes are in topological order, so one sweep does it.
    std::vector<char> backward(n, 0);
    for (std::size_t i = 0; i < n; ++i) {
        const auto id = static_cast<NodeId>(i);
        const Node& node = graph.node(id);
        if (isTangent(graph, id)) {
            backward[i] = 1;
            result.region[i] = Region::Tangent;
            continue;
        }
        if (node.op == NodeOp::Placeholder) {
            result.region[i] = Region::Primal;
            continue;
        }
        if (node.op == NodeOp::Output) {
            result.region[i] = Region::Output;
            continue;
        }
        for (NodeId in : node.inputs) {
            if (backward[static_cast<std::size_t>(in)]) {
                backward[i] = 1;
                break;
            }
        }
        if (backward[i])
            result.region[i] = Region::Backward;
        else if (forward[i])
            result.region[i] = Region::Forward;
    }

    // Where the backward starts in graph order: unclaimed nodes before it belong to the forward.
    std::size_t firstBackward = n;
    for (std::size_t i = 0; i < n; ++i) {
        if (result.region[i] == Region::Backward) {
            firstBackward = i;
            break;
        }
    }
    result.side.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        const Region r = result.region[i];
        result.side[i]
            = r == Region::Unclaimed ? (i < firstBackward ? Side::Forward : Side::Backward) : sideOf(r);
    }
    return result;
}

bool isTaggable(const JointGraph& graph, NodeId n)
{
    const NodeOp op = graph.node(n).op;
    return op != NodeOp::Placeholder && op != NodeOp::Output;
}

} // namespace remat::ui
