// SPDX-License-Identifier: MIT
#pragma once

#include "graph/joint_graph.h"

#include <cstddef>
#include <optional>
#include <ostream>
#include <string_view>

namespace remat {
struct PartitionResult;
}

namespace remat::cli {

/// The summary's "PyTorch" line: the decision the file recorded for the plan's options (and
/// `budget`, `budgetVariant` for a memory-budget plan) against the plan's saved values, or why
/// there is none to compare with; nothing when the file records no decision at all. `labelWidth`:
/// the summary's first column.
void printRecordedComparison(const JointGraph& graph, const PartitionResult& result, std::size_t labelWidth,
    std::ostream& out, std::optional<double> budget = std::nullopt, std::string_view budgetVariant = {});

} // namespace remat::cli
