// SPDX-License-Identifier: MIT
#pragma once

#include "budget/budget_planner.h"
#include "cli/arguments.h"

#include <filesystem>
#include <set>
#include <string>

namespace remat::cli {

/// --solver, --estimator, --device, --devices, --rules, --inductor-passes: the options of the budget,
/// pareto and memory commands.
const std::set<std::string>& budgetOptionNames();

/// --rules for a memory budget: torch-2.14 (or newest, its alias) by default; torch-1.13 is a usage
/// error, since PyTorch 1.13 had no memory budget. Inductor's joint-graph passes are replayed as
/// --inductor-passes says (by default when the graph's recorded decisions came after them), as the
/// partition command does.
PartitionOptions budgetPartitionOptionsFrom(const Arguments& args, const JointGraph& graph);

/// Reads them; the roofline estimator (implied by --device) loads the device-profile file.
BudgetOptions budgetOptionsFrom(const Arguments& args);

/// --devices FILE, else $REMAT_DEVICE_PROFILES, else device_profiles.json of the data dir
/// (share/remat-explorer beside the installed binary; see install/data_dir.h).
std::filesystem::path deviceProfilesPath(const Arguments& args);

/// --budget; `fallback` when absent. Throws PyTorch's error for a budget outside [0, 1].
double budgetFrom(const Arguments& args, double fallback);

} // namespace remat::cli
