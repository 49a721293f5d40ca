// SPDX-License-Identifier: MIT
#include "budget/budget_session.h"

#include "graph/error.h"
#include "partition/activation_offloading.h"
#include "partition/partitioner.h"

namespace remat {

PartitionOptions BudgetSession::newest(PartitionOptions options)
{
    options.rules = RuleSet::Newest;
    options.partitioner = PartitionerKind::MinCut;
    return options;
}

BudgetSession::BudgetSession(const JointGraph& graph, PartitionOptions options, BudgetOptions budgetOptions)
    : m_prepared(graph, newest(std::move(options)))
    , m_planner(m_prepared, std::move(budgetOptions))
    , m_storages(m_prepared.graph())
    , m_simulator(m_prepared.graph(), m_storages)
{
    if (graph.kind() == GraphKind::Forward)
        throw Error(forwardOnlyMessage(graph));
    if (!m_prepared.hasBackward())
        throw Error(
            graph.filePath() + ": the graph has no backward, so there is no activation memory to trade");
    m_cost.assign(graph.size(), 0.0);
    for (NodeId n : m_prepared.graph().order()) {
        if (graph.node(n).op == NodeOp::CallFunction)
            m_cost[static_cast<std::size_t>(n)] = m_planner.estimator().cost(n);
    }
    if (m_prepared.options().config.activationOffloading)
        m_offloadMarks = effectiveTags(graph, m_prepared.options());
}

void BudgetSession::applyOffloading(PartitionResult& result) const
{
    if (!m_offloadMarks.empty())
        chooseOffloadSets(m_prepared.joint(), m_prepared.ops(), m_offloadMarks, result);
}

ResolvedBudget BudgetSession::resolveBudget(double configured) const
{
    return resolveMemoryBudget(m_prepared.graph(), m_prepared.classes(), configured);
}

BudgetedPlan BudgetSession::plan(double budget, const std::optional<MemorySimulationOptions>& memory) const
{
    return evaluate(m_planner.decide(budget), memory);
}

BudgetedPlan BudgetSession::evaluate(
    const BudgetDecision& decision, const std::optional<MemorySimulationOptions>& memory) const
{
    BudgetedPlan plan;
    plan.budget = decision.budget;
    plan.stage = decision.stage;
    plan.decision = decision;
    MinCutSolution solution = m_planner.solve(decision);
    const std::vector<NodeId> chosen = solution.saved;
    const bool synthetic = decision.stage == BudgetStage::KeepInputs;
    m_prepared.finish(std::move(solution), plan.result);
    if (synthetic)
        plan.result.cutValue.reset(); // no min-cut ran
    applyOffloading(plan.result);
    std::string note
        = "memory budget " + pythonFloat(decision.budget) + ": " + std::string(stageName(decision.stage));
    if (decision.stage == BudgetStage::Knapsack) {
        note += " (" + std::string(solverName(m_planner.options().solver)) + ") over "
            + std::to_string(m_planner.items().size()) + " candidates, "
            + std::to_string(decision.knapsack.recomputed.size()) + " allowed to be recomputed";
    }
    plan.result.notes.push_back(std::move(note));
    plan.metrics = metrics(plan.result, chosen);
    if (memory) {
        plan.memory = m_simulator.run(plan.result, *memory);
        plan.metrics.peakBytes = plan.memory->peakBytes;
    }
    return plan;
}

PlanOutline BudgetSession::outline(const BudgetDecision& decision, bool simulatePeak) const
{
    const std::vector<NodeId> chosen = m_planner.savedValues(decision);
    PartitionResult result;
    m_prepared.split(chosen, result);
    applyOffloading(result);
    PlanOutline outline;
    outline.stage = decision.stage;
    outline.metrics = metrics(result, chosen);
    outline.recomputedCount = static_cast<int>(result.recomputed.size());
    if (simulatePeak) {
        const MemoryProfile memory = m_simulator.run(result, {false, false});
        outline.metrics.peakBytes = memory.peakBytes;
        outline.peakNode = memory.peakNode;
        outline.peakPhase = memory.peakPhase;
    }
    outline.saved = std::move(result.savedValues);
    return outline;
}

PlanMetrics BudgetSession::metrics(const PartitionResult& result, std::span<const NodeId> chosen) const
{
    PlanMetrics m;
    m.memoryRatio = m_planner.memoryRatio(chosen);
    m.activationBytes = distinctStorageBytes(m_storages, result.savedValues);
    m.savedBytes = result.savedBytes;
    m.offloadedBytes = result.offloadedBytes;
    for (NodeId n : result.recomputed)
        m.estimatedRuntime += m_cost[static_cast<std::size_t>(n)];
    return m;
}

} // namespace remat
