// SPDX-License-Identifier: MIT
#pragma once

#include "explain/plan_run.h"
#include "graph/joint_graph.h"
#include "partition/partition_options.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace remat {

/// PyTorch's own decision recorded in a graph file for one way of partitioning.
struct RecordedPlan {
    std::string key; ///< the file's key: "min_cut", "default", "memory_budget_0.25", ...
    const RecordedPartition* recorded; ///< points into the graph
};

struct BudgetOptions;

/// How a budget record is told apart from PyTorch's defaults (dp solver, flops estimator): "" for
/// those, else the solver or estimator name ("greedy", "testing"), as in "memory_budget_0.5_greedy".
std::string budgetRecordVariant(const BudgetOptions& options);

/// The key PyTorch's decision for these options would be recorded under in this file: min_cut,
/// min_cut_inductor, default, or memory_budget_<b> (matched by value: the exporter writes
/// "memory_budget_0" for 0). The file's torch version says which rules its records follow (1.x:
/// torch-1.13, 2.x: newest); nullopt when the options are not what the file recorded.
/// A budget record matches by value and by `budgetVariant` (budgetRecordVariant), never another one.
/// The default partitioner also takes a log's min_cut record when the log does not name its
/// partitioner (RecordedPartition::partitionerNamed) and the file has no default record.
std::optional<std::string> recordedKey(const JointGraph& graph, const PartitionOptions& options,
    std::optional<double> budget = std::nullopt, std::string_view budgetVariant = {});

/// The recorded decision for these options, or nullopt when the file has none.
std::optional<RecordedPlan> findRecordedPlan(const JointGraph& graph, const PartitionOptions& options,
    std::optional<double> budget = std::nullopt, std::string_view budgetVariant = {});

/// A memory-budget decision PyTorch recorded, with the budget it was made under.
struct RecordedBudgetPlan {
    double budget = 0;
    RecordedPlan plan;
};

/// Every memory_budget_<b> decision that plans with these options can be set beside: recorded
/// with `budgetVariant` (PyTorch's defaults: ""), by a PyTorch whose rules are the newest, on the
/// graph without tags. Sorted by budget; empty when none qualifies.
std::vector<RecordedBudgetPlan> comparableBudgetRecords(
    const JointGraph& graph, const PartitionOptions& options, std::string_view budgetVariant = {});

/// Why there is none, in one sentence naming the file and the key looked for.
std::string missingRecordedPlanMessage(const JointGraph& graph, const PartitionOptions& options,
    std::optional<double> budget = std::nullopt, std::string_view budgetVariant = {});

/// The recorded decision as a plan: its saved values, the forward and backward extracted as the
/// options' rules extract them. Throws remat::Error (missingRecordedPlanMessage, or a node the
/// graph does not have).
PartitionResult recordedPlanResult(const PlanRunner& runner, const PartitionOptions& options,
    std::optional<double> budget = std::nullopt, std::string_view budgetVariant = {});

} // namespace remat
