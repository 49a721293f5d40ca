// SPDX-License-Identifier: MIT
#include "budget/plan_from_saved.h"

#include "graph/error.h"

#include <algorithm>

namespace remat {

BudgetedPlan planFromSavedNames(const BudgetSession& session, const std::vector<std::string>& savedNames,
    const std::string& source, const MemorySimulationOptions& memory)
{
    const JointGraph& graph = session.graph();
    MinCutSolution solution;
    for (const auto& name : savedNames) {
        const NodeId n = graph.find(name);
        if (n == kNoNode)
            throw Error(source + ": saved value '" + name + "' is not a node of " + graph.filePath());
        if (!session.prepared().graph().alive(n))
            throw Error(
                source + ": saved value '" + name + "' does not survive dead-code elimination and CSE");
        solution.saved.push_back(n);
    }
    std::sort(solution.saved.begin(), solution.saved.end());
    solution.saved.erase(std::unique(solution.saved.begin(), solution.saved.end()), solution.saved.end());
    solution.weights.assign(graph.size(), PartitionResult::kNoWeightEdge);
    BudgetedPlan plan;
    const std::vector<NodeId> chosen = solution.saved;
    session.prepared().finish(std::move(solution), plan.result);
    plan.result.cutValue.reset();
    session.applyOffloading(plan.result);
    plan.metrics = session.metrics(plan.result, chosen);
    plan.memory = session.simulator().run(plan.result, memory);
    plan.metrics.peakBytes = plan.memory->peakBytes;
    return plan;
}

} // namespace remat
