// SPDX-License-Identifier: MIT
#include "analysis/classification.h"

#include "analysis/node_roles.h"
#include "analysis/op_categories.h"
#include "analysis/placement.h"
#include "partition/extraction.h"

#include <algorithm>

namespace remat {

NodeClasses classifyNodes(const WorkGraph& graph, const OpCategories& ops)
{
    const JointGraph& joint = graph.graph();
    const bool newest = ops.rules() == RuleSet::Newest;
    const std::size_t count = joint.size();
    NodeClasses classes;
    classes.requiredBw.assign(count, 0);
    classes.requiredFw.assign(count, 0);
    classes.distFromBw.assign(count, 0);

    // required_bw: the tangents and everything downstream (newest: also must-be-in-backward nodes).
    for (NodeId n : graph.order()) {
        auto& bw = classes.requiredBw[static_cast<std::size_t>(n)];
        if (isTangent(joint, n) || (newest && mustBeInBackward(graph, ops, n)))
            bw = 1;
        if (bw) {
            for (NodeId user : graph.users(n))
                classes.requiredBw[static_cast<std::size_t>(user)] = 1;
        }
    }
    if (newest) {
        classes.tangentClosure = classes.requiredBw;
        for (NodeId out : graph.bwdOutputs()) {
            if (out != kNoNode && out != graph.outputNode())
                classes.requiredBw[static_cast<std::size_t>(out)] = 1;
        }
    }

    // required_fw: what a forward-only graph from the inputs to the forward outputs contains.
    for (NodeId n : graph.order()) {
        if (newest ? (isPrimalNewest(joint, n) || isFwdSeedOffset(joint, n)) : isPrimal113(joint, n))
            classes.inputs.push_back(n);
    }
    std::vector<char> impure(count, 0);
    std::vector<char> backwardOnly(count, 0);
    for (NodeId n : graph.order()) {
        impure[static_cast<std::size_t>(n)] = ops.sideEffectful(joint.node(n).target);
        backwardOnly[static_cast<std::size_t>(n)] = newest && mustBeInBackward(graph, ops, n);
    }
    const ExtractionRules rules {&impure, newest ? &backwardOnly : nullptr, "forward-only"};
    const auto forwardOnly = extractSubgraph(graph, classes.inputs, graph.fwdOutputs(), rules);
    classes.requiredFw = forwardOnly.contains;

    // dist_from_bw, in reverse order. 1.13 treats the output node like any backward node (0);
    // newest gives it kFar, so values only the forward outputs need stay "far".
    for (auto it = graph.order().rbegin(); it != graph.order().rend(); ++it) {
        const NodeId n = *it;
        int& dist = classes.distFromBw[static_cast<std::size_t>(n)];
        if (newest && n == graph.outputNode()) {
            dist = NodeClasses::kFar;
        } else if (!classes.isRequiredFw(n)) {
            dist = 0;
        } else {
            dist = NodeClasses::kFar;
            for (NodeId user : graph.users(n))
                dist = std::min(dist, classes.dist(user) + 1);
        }
    }

    if (newest) {
        classes.fwOrder.assign(count, -1);
        int rank = 0;
        for (NodeId n : graph.order()) {
            if (classes.isRequiredFw(n))
                classes.fwOrder[static_cast<std::size_t>(n)] = rank++;
        }
    }
    return classes;
}

} // namespace remat
