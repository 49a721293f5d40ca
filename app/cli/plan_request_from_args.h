// SPDX-License-Identifier: MIT
#pragma once

#include "cli/arguments.h"
#include "explain/plan_request.h"
#include "graph/joint_graph.h"

#include <set>
#include <string>

namespace remat::cli {

/// The partition options, --tag, --budget and the budget options (--solver, --estimator, --device,
/// --devices): everything that says how to make one plan.
std::set<std::string> planRequestOptionNames();

/// Checks what can be checked before the graph is loaded (throws UsageError): option values, and
/// --budget (which runs the torch-2.14 min-cut) against --partitioner default or --rules torch-1.13.
PlanRequest planRequestFrom(const Arguments& args);

/// ... then resolves the --tag options against the graph (UsageError for an unknown node), and
/// without --budget, --rules or --compiler takes the rules of the PyTorch that recorded the graph.
void addTags(PlanRequest& request, const Arguments& args, const JointGraph& graph);

/// "min-cut, torch-1.13 rules, nvfuser op list" or "memory budget 0.3 (torch-2.14 rules, dp, flops)".
std::string describeRequest(const PlanRequest& request);

} // namespace remat::cli
