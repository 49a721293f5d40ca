// SPDX-License-Identifier: MIT
#include "explain/recorded_plan.h"

#include "analysis/recording_rules.h"
#include "budget/region_budget.h"
#include "graph/error.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace remat {
namespace {

constexpr std::string_view kBudgetPrefix = "memory_budget_";

/// The rules a file's records follow: torch 1.x decided under 1.13's, 2.x under 2.14's.
RuleSet recordedRules(const JointGraph& graph)
{
    return rulesOfRecording(graph);
}

/// The budget a "memory_budget_<b>" record was made under.
std::optional<double> budgetOfRecord(const std::string& key, const RecordedPartition& recorded)
{
    if (recorded.memoryBudget)
        return recorded.memoryBudget;
    if (!key.starts_with(kBudgetPrefix))
        return std::nullopt;
    double value = 0;
    const char* first = key.data() + kBudgetPrefix.size();
    const char* last = key.data() + key.size();
    const auto [end, error] = std::from_chars(first, last, value);
    if (error != std::errc {} || end != last)
        return std::nullopt;
    return value;
}

/// As the exporter names it: Python's f"{b:g}" ("0", "0.25").
std::string budgetKeyName(double budget)
{
    char text[32];
    std::snprintf(text, sizeof text, "%g", budget);
    return std::string(kBudgetPrefix) + text;
}

bool rulesMatch(const JointGraph& graph, const PartitionOptions& options, std::optional<double> budget)
{
    const RuleSet wanted = budget ? RuleSet::Newest : options.rules; // budgets run the newest rules
    return options.tags.empty() && recordedRules(graph) == wanted;
}

} // namespace

std::optional<std::string> recordedKey(
    const JointGraph& graph, const PartitionOptions& options, std::optional<double> budget)
{
    if (!rulesMatch(graph, options, budget))
        return std::nullopt;
    if (budget) {
        for (const auto& [key, recorded] : graph.recorded()) {
            const auto value = budgetOfRecord(key, recorded);
            if (value && std::abs(*value - *budget) < 1e-12)
                return key;
        }
        return budgetKeyName(*budget);
    }
    if (options.partitioner == PartitionerKind::Default)
        return "default";
    if (options.rules == RuleSet::Torch113 && options.compiler == OpListCompiler::Inductor)
        return "min_cut_inductor";
    return "min_cut";
}

std::optional<RecordedPlan> findRecordedPlan(
    const JointGraph& graph, const PartitionOptions& options, std::optional<double> budget)
{
    const auto key = recordedKey(graph, options, budget);
    if (!key)
        return std::nullopt;
    const RecordedPartition* recorded = graph.recordedPartition(*key);
    if (!recorded)
        return std::nullopt;
    return RecordedPlan {*key, recorded};
}

std::string missingRecordedPlanMessage(
    const JointGraph& graph, const PartitionOptions& options, std::optional<double> budget)
{
    const std::string& file = graph.filePath();
    if (graph.recorded().empty())
        return file + ": the file records no decision of PyTorch's";
    if (!options.tags.empty())
        return file + ": PyTorch's recorded decisions were made without tags, so none matches a tagged plan";
    const std::string version = graph.recordedTorchVersion().empty() ? "1.13" : graph.recordedTorchVersion();
    if (!rulesMatch(graph, options, budget)) {
        return file + ": the file records PyTorch " + version + "'s decisions, which follow the "
            + std::string(ruleSetName(recordedRules(graph))) + " rules, not "
            + std::string(ruleSetName(budget ? RuleSet::Newest : options.rules))
            + (budget ? " (a memory budget runs the torch-2.14 rules)" : "");
    }
    std::string known;
    for (const auto& [key, recorded] : graph.recorded())
        known += (known.empty() ? "" : ", ") + key;
    return file + ": no recorded PyTorch decision \"" + *recordedKey(graph, options, budget)
        + "\" (the file has: " + known + ")";
}

PartitionResult recordedPlanResult(
    const PlanRunner& runner, const PartitionOptions& options, std::optional<double> budget)
{
    const JointGraph& graph = runner.graph();
    const auto plan = findRecordedPlan(graph, options, budget);
    if (!plan)
        throw Error(missingRecordedPlanMessage(graph, options, budget));
    const std::string source = graph.filePath() + ": reference." + plan->key;
    std::vector<NodeId> saved;
    for (std::size_t i = 0; i < plan->recorded->savedValues.size(); ++i) {
        const std::string& name = plan->recorded->savedValues[i];
        const NodeId n = graph.find(name);
        if (n == kNoNode)
            throw Error(source + ".saved_values[" + std::to_string(i) + "]: '" + name
                + "' is not a node of the graph");
        saved.push_back(n);
    }
    PartitionOptions extraction = options;
    if (budget) {
        extraction.rules = RuleSet::Newest;
        extraction.partitioner = PartitionerKind::MinCut;
    }
    return runner.planSaving(extraction, saved, source);
}

} // namespace remat
