// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/op_categories.h"
#include "partition/partition_result.h"

namespace remat {

/// torch 1.13's default_partition: the forward is what the primals alone compute for the forward
/// outputs; every such value (tuples through their getitems) is saved if the backward reads it.
void defaultPartitionTorch113(const JointGraph& graph, const OpCategories& ops, PartitionResult& result);

/// The newest default_partition: the forward region is placement-based (up to the last forward
/// node), recompute tags are honoured by not saving tagged values (reference doc section 3.1).
void defaultPartitionNewest(const JointGraph& graph, const OpCategories& ops, PartitionResult& result);

} // namespace remat
