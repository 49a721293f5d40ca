// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/op_categories.h"
#include "partition/partition_result.h"
#include "partition/work_graph.h"

#include <vector>

namespace remat {

/// _extract_fwd_bwd_modules: builds the forward graph (primals -> forward outputs + saved) and the
/// backward graph (saved + tangents -> gradients), drops saved values the backward never reads,
/// and fills fwNodes, bwNodes, savedValues, recomputed and savedBytes of `result`.
void splitForwardBackward(const WorkGraph& graph, const OpCategories& ops, std::vector<NodeId> saved,
                          PartitionResult& result);

} // namespace remat
