// SPDX-License-Identifier: MIT
#pragma once

#include "graph/joint_graph.h"
#include "partition/partition_result.h"

#include <map>
#include <string>
#include <variant>

namespace remat {

/// Extra top-level keys of a plan file ("budget", "peak_bytes", ...), written after the standard ones.
/// std::monostate, and any double that is not finite, is written as null (undefined).
using PlanExtras = std::map<std::string, std::variant<std::monostate, double, std::int64_t, std::string>>;

/// A partition plan as JSON: {"saved_values", "saved_sym_nodes", "fw_nodes", "bw_nodes",
/// "recomputed", "banned": {name: reason}, "saved_bytes", "cut_value", "made_with":
/// {"partitioner", "rules", "compiler", "activation_offloading", "tags": {name: policy}}}, and
/// "rng_state_ops" (the recomputed random ops whose RNG state the forward saves) when there are any; plus
/// `extras` (a plan with a "budget" extra was made by the memory-budget partitioner).
/// Scripts (samples/apply_plan.py) depend on these keys.
std::string planToJson(const JointGraph& graph, const PartitionResult& result, const PlanExtras& extras = {},
    bool pretty = true);

/// A plan read back: node names as written (they are resolved against a graph by the caller).
struct PlanFile {
    std::vector<std::string> savedValues;
    std::vector<std::string> savedSymNodes; ///< dynamic shapes: the SymInts passed to the backward
    std::vector<std::string> recomputed;
    std::vector<std::string> fwNodes;
    std::vector<std::string> bwNodes;
    std::optional<double> budget;
};

/// Its saved values and saved SymInts, the names a plan is re-extracted from.
std::vector<std::string> savedNames(const PlanFile& plan);

/// Throws remat::Error naming the file and what is wrong.
PlanFile readPlanFile(const std::string& path);
/// The same for text already read; `path` is only used in messages.
PlanFile readPlanText(const std::string& text, const std::string& path);

/// Throws remat::Error when a node the plan's forward or backward lists is not a node of `graph`:
/// the plan was made for another graph (the other compiled graph of a TORCH_TRACE log shares most
/// names, "primals_1", "t", and its saved values alone may all be found).
void checkPlanMatchesGraph(const PlanFile& plan, const JointGraph& graph, const std::string& path);

} // namespace remat
