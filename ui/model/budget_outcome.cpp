// SPDX-License-Identifier: MIT
#include "model/budget_outcome.h"

#include "budget/region_budget.h"
#include "explain/recorded_plan.h"
#include "graph/error.h"
#include "model/budget_session_cache.h"

#include <chrono>

namespace remat::ui {

PartitionOutcomePtr runBudgetPartition(const LoadedGraphPtr& graph, BudgetSessionCache& sessions,
    const PartitionOptions& options, const BudgetSettings& settings, std::uint64_t generation)
{
    auto outcome = std::make_shared<PartitionOutcome>();
    outcome->generation = generation;
    outcome->options = options;
    outcome->options.partitioner = PartitionerKind::MinCut; // as BudgetSession forces them
    outcome->options.rules = RuleSet::Newest;
    const auto start = std::chrono::steady_clock::now();
    auto budget = std::make_shared<BudgetOutcome>();
    try {
        const BudgetSessionCache::Entry entry = sessions.get(graph, options, settings);
        const BudgetSession& session = *entry.session;
        // As PyTorch: a node's meta["memory_budget"] overrides the configured budget.
        const ResolvedBudget resolved = session.resolveBudget(settings.budget);
        auto plan = std::make_shared<const BudgetedPlan>(
            session.plan(resolved.budget, MemorySimulationOptions {false, false}));
        outcome->result
            = std::shared_ptr<const PartitionResult>(plan, &plan->result); // shares the plan, no copy
        budget->plan = std::move(plan);
        budget->settings = settings;
        budget->budgetFromNode = resolved.fromNode;
        budget->runtimeUnit = std::string(session.planner().estimator().unit());
        if (const DeviceProfile* device = session.planner().estimator().device())
            budget->device = device->name;
        budget->candidates = session.planner().items().size();
        budget->session = entry.id;
        budget->sessionRef = entry.session;
        budget->graphRef = graph;
        budget->sessionSeconds = entry.buildSeconds;
    } catch (const Error& e) {
        outcome->error = QString::fromUtf8(e.what());
        return outcome;
    } catch (const std::exception& e) {
        outcome->error
            = QStringLiteral("The memory-budget partitioner failed: %1").arg(QString::fromUtf8(e.what()));
        return outcome;
    }
    outcome->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    outcome->budget = budget;
    describePartition(
        *outcome, *graph, budget->plan->budget, budgetRecordVariant(budgetOptionsFor(settings)));
    return outcome;
}

} // namespace remat::ui
