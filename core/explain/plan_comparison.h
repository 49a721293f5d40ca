// SPDX-License-Identifier: MIT
#pragma once

#include "explain/plan_run.h"
#include "partition/partition_result.h"

#include <vector>

namespace remat {

/// Two plans of one graph side by side: which values each saves (SymInts included).
struct PlanComparison {
    std::vector<NodeId> onlyInA; ///< saved by A only, graph order
    std::vector<NodeId> onlyInB;
    std::vector<NodeId> inBoth;
    PlanSummary a;
    PlanSummary b;
};

PlanComparison comparePlans(
    const PartitionResult& a, const PlanSummary& sa, const PartitionResult& b, const PlanSummary& sb);

} // namespace remat
