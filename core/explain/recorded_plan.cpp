// SPDX-License-Identifier: MIT
#include "explain/recorded_plan.h"

#include "analysis/recording_rules.h"
#include "budget/budget_planner.h"
#include "budget/knapsack.h"
#include "budget/region_budget.h"
#include "budget/runtime_estimator.h"
#include "graph/error.h"

#include <algorithm>
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

/// The budget a "memory_budget_<b>[_<variant>]" record was made under, and its variant ("" for
/// PyTorch's defaults, else the solver or estimator it was recorded with: "greedy", "testing").
std::optional<std::pair<double, std::string>> budgetOfRecord(
    const std::string& key, const RecordedPartition& recorded)
{
    if (!key.starts_with(kBudgetPrefix))
        return std::nullopt;
    double value = 0;
    const char* first = key.data() + kBudgetPrefix.size();
    const char* last = key.data() + key.size();
    const auto [end, error] = std::from_chars(first, last, value);
    if (error != std::errc {} || (end != last && *end != '_'))
        return std::nullopt;
    std::string variant = end == last ? std::string() : std::string(end + 1, last);
    return std::pair {recorded.memoryBudget.value_or(value), std::move(variant)};
}

/// As the exporter names it: Python's f"{b:g}" ("0", "0.25"), then "_<variant>" if any.
std::string budgetKeyName(double budget, std::string_view variant)
{
    char text[32];
    std::snprintf(text, sizeof text, "%g", budget);
    return std::string(kBudgetPrefix) + text + (variant.empty() ? "" : "_" + std::string(variant));
}

bool rulesMatch(const JointGraph& graph, const PartitionOptions& options, std::optional<double> budget)
{
    const RuleSet wanted = budget ? RuleSet::Newest : options.rules; // budgets run the newest rules
    return options.tags.empty() && recordedRules(graph) == wanted;
}

} // namespace

std::string budgetRecordVariant(const BudgetOptions& options)
{
    const bool defaultSolver = options.solver == KnapsackSolver::Dp;
    const bool defaultEstimator = options.estimator == RuntimeEstimatorKind::Flops;
    if (defaultSolver && defaultEstimator)
        return {};
    if (defaultEstimator)
        return std::string(solverName(options.solver));
    if (defaultSolver)
        return std::string(estimatorName(options.estimator));
    return std::string(solverName(options.solver)) + "_" + std::string(estimatorName(options.estimator));
}

std::optional<std::string> recordedKey(const JointGraph& graph, const PartitionOptions& options,
    std::optional<double> budget, std::string_view budgetVariant)
{
    if (!rulesMatch(graph, options, budget))
        return std::nullopt;
    if (budget) {
        for (const auto& [key, recorded] : graph.recorded()) {
            const auto record = budgetOfRecord(key, recorded);
            if (record && std::abs(record->first - *budget) < 1e-12 && record->second == budgetVariant)
                return key;
        }
        return budgetKeyName(*budget, budgetVariant);
    }
    if (options.partitioner == PartitionerKind::Default) {
        // A log's one decision, of a partitioner it does not name, stands for either partitioner.
        const RecordedPartition* logged = graph.recordedPartition("min_cut");
        if (!graph.recordedPartition("default") && logged && !logged->partitionerNamed)
            return "min_cut";
        return "default";
    }
    if (options.rules == RuleSet::Torch113 && options.compiler == OpListCompiler::Inductor)
        return "min_cut_inductor";
    return "min_cut";
}

std::vector<RecordedBudgetPlan> comparableBudgetRecords(
    const JointGraph& graph, const PartitionOptions& options, std::string_view budgetVariant)
{
    std::vector<RecordedBudgetPlan> out;
    if (!rulesMatch(graph, options, 0.0)) // any budget: budgets all run the newest rules
        return out;
    for (const auto& [key, recorded] : graph.recorded()) {
        const auto record = budgetOfRecord(key, recorded);
        if (record && record->second == budgetVariant)
            out.push_back({record->first, {key, &recorded}});
    }
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.budget < b.budget; });
    return out;
}

std::optional<RecordedPlan> findRecordedPlan(const JointGraph& graph, const PartitionOptions& options,
    std::optional<double> budget, std::string_view budgetVariant)
{
    const auto key = recordedKey(graph, options, budget, budgetVariant);
    if (!key)
        return std::nullopt;
    const RecordedPartition* recorded = graph.recordedPartition(*key);
    if (!recorded)
        return std::nullopt;
    return RecordedPlan {*key, recorded};
}

std::string missingRecordedPlanMessage(const JointGraph& graph, const PartitionOptions& options,
    std::optional<double> budget, std::string_view budgetVariant)
{
    const std::string& file = graph.filePath();
    if (const std::string& unmatched = graph.source().unmatchedDecision; !unmatched.empty())
        return unmatched.starts_with(file) ? unmatched : file + ": " + unmatched;
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
    return file + ": no recorded PyTorch decision \"" + *recordedKey(graph, options, budget, budgetVariant)
        + "\" (the file has: " + known + ")";
}

PartitionResult recordedPlanResult(const PlanRunner& runner, const PartitionOptions& options,
    std::optional<double> budget, std::string_view budgetVariant)
{
    const JointGraph& graph = runner.graph();
    const auto plan = findRecordedPlan(graph, options, budget, budgetVariant);
    if (!plan)
        throw Error(missingRecordedPlanMessage(graph, options, budget, budgetVariant));
    const std::string source = graph.filePath() + ": reference." + plan->key;
    std::vector<NodeId> saved;
    // With dynamic shapes the SymInts it passes to the backward are part of the decision.
    for (const auto& [key, names] : {std::pair {".saved_values[", &plan->recorded->savedValues},
             std::pair {".saved_sym_nodes[", &plan->recorded->savedSymNodes}}) {
        for (std::size_t i = 0; i < names->size(); ++i) {
            const std::string& name = (*names)[i];
            const NodeId n = graph.find(name);
            if (n == kNoNode)
                throw Error(
                    source + key + std::to_string(i) + "]: '" + name + "' is not a node of the graph");
            saved.push_back(n);
        }
    }
    PartitionOptions extraction = options;
    if (budget) {
        extraction.rules = RuleSet::Newest;
        extraction.partitioner = PartitionerKind::MinCut;
    }
    PartitionResult result = runner.planSaving(extraction, saved, source);
    // A SymInt input PyTorch passes although the printed sizes do not call for it (it binds a
    // symbol a guard replaced: replacedSymbolNote) stays in PyTorch's plan, as its forward returns it.
    for (const std::string& name : plan->recorded->savedSymNodes) {
        const NodeId n = graph.find(name);
        if (graph.node(n).op != NodeOp::Placeholder
            || std::find(result.savedSymNodes.begin(), result.savedSymNodes.end(), n)
                != result.savedSymNodes.end())
            continue;
        result.savedSymNodes.insert(result.savedSymNodes.begin(), n);
        result.bwNodes.insert(result.bwNodes.begin(), n);
    }
    return result;
}

} // namespace remat
