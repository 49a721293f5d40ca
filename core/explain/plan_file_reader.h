// SPDX-License-Identifier: MIT
#pragma once

#include "explain/plan_run.h"
#include "partition/partition_options.h"

#include <string>

namespace remat {

struct PlanFile;

/// " (the plan lists no "saved_sym_nodes": ...)" when `graph` has dynamic shapes and `plan` lists
/// no saved SymInts, else "": appended to the error re-extracting such a plan fails with.
std::string missingSymNodesHint(const JointGraph& graph, const PlanFile& plan);

/// A plan file (core/io/plan_json) read back against a graph: its saved values, the forward and
/// backward extracted as `options`' rules extract them. Throws remat::Error naming the file and
/// the key or node that is wrong (a missing "saved_values", a name the graph does not have).
PartitionResult readPlanResult(
    const PlanRunner& runner, const std::string& path, const PartitionOptions& options);

} // namespace remat
