// SPDX-License-Identifier: MIT
#include "cli/plan_request_from_args.h"

#include "analysis/recording_rules.h"
#include "budget/budget_io.h"

#include "budget/knapsack.h"
#include "budget/region_budget.h"
#include "budget/runtime_estimator.h"
#include "cli/budget_args.h"
#include "cli/partition_options_from_args.h"

namespace remat::cli {

std::set<std::string> planRequestOptionNames()
{
    std::set<std::string> names = partitionOptionNames();
    names.insert(budgetOptionNames().begin(), budgetOptionNames().end());
    names.insert("--budget");
    return names;
}

PlanRequest planRequestFrom(const Arguments& args)
{
    PlanRequest request;
    request.options = partitionOptionsFrom(args);
    request.budgetOptions = budgetOptionsFrom(args);
    if (args.value("--budget")) {
        if (request.options.partitioner == PartitionerKind::Default)
            throw UsageError {
                "--budget runs the memory-budget min-cut: it cannot be combined with --partitioner default"};
        if (args.value("--rules") && request.options.rules != RuleSet::Newest)
            throw UsageError {"--budget runs under the torch-2.14 rules (torch 1.13 had no memory budget): "
                              "drop --rules torch-1.13"};
        request.options.rules = RuleSet::Newest;
        request.budget = budgetFrom(args, 1.0);
    }
    return request;
}

void addTags(PlanRequest& request, const Arguments& args, const JointGraph& graph)
{
    request.options.tags = tagsFrom(args, graph);
    if (!request.budget)
        applyRulesOfRecording(request.options, args, graph);
    else
        request.options.config.inductorJointPasses = inductorJointPassesFrom(args, RuleSet::Newest, graph);
}

std::string describeRequest(const PlanRequest& request)
{
    const PartitionOptions& o = request.options;
    if (request.budget) {
        const BudgetOptions& b = request.budgetOptions;
        return budgetPlanLabel(
            *request.budget, b.solver, b.estimator, b.device ? b.device->name : std::string());
    }
    std::string text
        = std::string(partitionerName(o.partitioner)) + ", " + std::string(ruleSetName(o.rules)) + " rules";
    if (o.rules == RuleSet::Torch113 && o.partitioner == PartitionerKind::MinCut)
        text += ", " + std::string(compilerName(o.compiler)) + " op list";
    return text;
}

} // namespace remat::cli
