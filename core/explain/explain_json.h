// SPDX-License-Identifier: MIT
#pragma once

#include "explain/cut_neighbourhood.h"
#include "explain/plan_comparison.h"
#include "explain/what_if.h"

#include <optional>
#include <string>

namespace remat {

/// The explain command's JSON (scripts depend on these keys): {"node", "decision", "reason",
/// "flip": {"tag", "saved_bytes_delta", "peak_bytes_delta", "runtime_delta", "changed_nodes", ...}
/// or null when the node cannot flip, "before", "cut", "knapsack"}. Numbers are always finite.
std::string whatIfToJson(
    const JointGraph& graph, const WhatIf& whatIf, const std::optional<CutNeighbourhood>& cut);

/// The compare command's JSON: {"only_in_a", "only_in_b", "in_both_count", "a": {...}, "b": {...}}
/// with each side's "saved_bytes", "peak_bytes", "estimated_runtime" and counts; `labelA`/`labelB`
/// say where each plan came from.
std::string comparisonToJson(const JointGraph& graph, const PlanComparison& comparison,
    const std::string& labelA, const std::string& labelB);

} // namespace remat
