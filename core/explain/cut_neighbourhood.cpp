// SPDX-License-Identifier: MIT
#include "explain/cut_neighbourhood.h"

#include "budget/budget_session.h"

#include <algorithm>
#include <limits>

namespace remat {
namespace {

/// The node a reference to n means after CSE (n itself when nothing was merged).
NodeId kept(const PartitionResult& r, NodeId n)
{
    const auto i = static_cast<std::size_t>(n);
    return i < r.mergedInto.size() && r.mergedInto[i] != kNoNode ? r.mergedInto[i] : n;
}

SaveEdge saveEdgeOf(const PartitionResult& r, NodeId n)
{
    SaveEdge e;
    e.node = n;
    const auto i = static_cast<std::size_t>(n);
    if (i < r.weights.size())
        e.capacity = r.weights[i];
    e.onCut = r.isSaved(n);
    return e;
}

/// Distinct nodes in first-seen order, each mapped through CSE, without `self` and dead code.
std::vector<SaveEdge> edgesOf(
    const JointGraph& graph, const PartitionResult& r, const std::vector<NodeId>& nodes, NodeId self)
{
    std::vector<SaveEdge> out;
    std::vector<NodeId> seen;
    for (NodeId raw : nodes) {
        const NodeId n = kept(r, raw);
        if (n == self || graph.node(n).op == NodeOp::Output
            || std::binary_search(r.dceRemoved.begin(), r.dceRemoved.end(), n)
            || std::find(seen.begin(), seen.end(), n) != seen.end())
            continue;
        seen.push_back(n);
        out.push_back(saveEdgeOf(r, n));
    }
    return out;
}

/// Both rule sets weigh a save edge so (reference doc section 4.2.4).
constexpr const char* kWeightUnit
    = "bytes x 1.1^dist_from_bw (dist clamped to 1..100), doubled when the value is "
      "not materialised anyway; parameters are free to save under the newest rules";

std::optional<KnapsackPlace> knapsackPlace(const PlanRunner& runner, const PlanRequest& request, NodeId n)
{
    const auto session = runner.budgetSession(request);
    const BudgetPlanner& planner = session->planner();
    const BudgetDecision decision = planner.decide(session->resolveBudget(*request.budget).budget);
    if (decision.stage != BudgetStage::Knapsack)
        return std::nullopt;
    const auto& items = planner.items();
    const auto found
        = std::find_if(items.begin(), items.end(), [&](const KnapsackItem& item) { return item.node == n; });
    if (found == items.end())
        return std::nullopt;
    // Rank as the greedy knapsack orders items: runtime per unit of memory, descending.
    const auto density = [](const KnapsackItem& item) {
        return item.memory > 0 ? item.runtime / item.memory : std::numeric_limits<double>::infinity();
    };
    KnapsackPlace place;
    place.bytes = found->bytes;
    place.memory = found->memory;
    place.runtime = found->runtime;
    place.runtimeUnit = std::string(planner.estimator().unit());
    place.runtimePerByte = found->bytes > 0 ? found->runtime / static_cast<double>(found->bytes) : 0;
    place.itemCount = static_cast<int>(items.size());
    place.rank = 1
        + static_cast<int>(std::count_if(items.begin(), items.end(),
            [&](const KnapsackItem& item) { return density(item) > density(*found); }));
    place.kept = std::find(decision.recomputable.begin(), decision.recomputable.end(), n)
        == decision.recomputable.end();
    return place;
}

} // namespace

CutNeighbourhood cutNeighbourhood(
    const PlanRunner& runner, const PlanRequest& request, const PartitionResult& result, NodeId n)
{
    const JointGraph& graph = runner.graph();
    CutNeighbourhood c;
    c.minCut = result.cutValue.has_value();
    c.weightUnit = kWeightUnit;
    c.cutValue = result.cutValue;
    c.self = saveEdgeOf(result, n);
    const NodeId self = kept(result, n);
    c.producers = edgesOf(graph, result, graph.node(self).inputs, self);
    c.consumers = edgesOf(graph, result, graph.node(self).users, self);
    if (request.budget)
        c.knapsack = knapsackPlace(runner, request, n);
    return c;
}

} // namespace remat
