// SPDX-License-Identifier: MIT
#include "budget/region_budget.h"

#include "graph/error.h"

#include <charconv>
#include <cmath>

namespace remat {

std::string pythonFloat(double value)
{
    if (std::isnan(value))
        return "nan";
    if (std::isinf(value))
        return value > 0 ? "inf" : "-inf";
    char text[64];
    const auto [end, error] = std::to_chars(text, text + sizeof text, value);
    std::string out(text, error == std::errc {} ? end : text);
    if (out.find_first_of(".en") == std::string::npos)
        out += ".0";
    return out;
}

void checkMemoryBudget(double budget)
{
    if (!(budget >= 0 && budget <= 1))
        throw Error("The valid ranges for memory budget are 0 <= m <= 1. The provided value is "
            + pythonFloat(budget));
}

ResolvedBudget resolveMemoryBudget(const WorkGraph& graph, const NodeClasses& classes, double configured)
{
    const JointGraph& joint = graph.graph();
    ResolvedBudget resolved {configured, kNoNode};
    NodeId missing = kNoNode;
    for (NodeId n : graph.order()) {
        const auto& budget = joint.node(n).meta.memoryBudget;
        if (!budget) {
            if (missing == kNoNode && classes.isRequiredFw(n) && joint.node(n).op == NodeOp::CallFunction)
                missing = n;
            continue;
        }
        if (resolved.fromNode == kNoNode) {
            resolved = {*budget, n};
        } else if (*budget != resolved.budget) {
            throw Error("conflicting budgets: node '" + joint.node(resolved.fromNode).name
                + "' has memory_budget " + pythonFloat(resolved.budget) + " but node '" + joint.node(n).name
                + "' has " + pythonFloat(*budget) + " (one graph is partitioned under one budget)");
        }
    }
    if (resolved.fromNode != kNoNode && missing != kNoNode)
        throw Error("the memory_budget " + pythonFloat(resolved.budget) + " of node '"
            + joint.node(resolved.fromNode).name + "' must cover the entire forward, but forward node '"
            + joint.node(missing).name + "' has none");
    checkMemoryBudget(resolved.budget);
    return resolved;
}

} // namespace remat
