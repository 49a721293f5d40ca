// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/op_categories.h"
#include "partition/partition_result.h"

#include <vector>

namespace remat {

/// MUST_CPU_OFFLOAD or PREFER_CPU_OFFLOAD.
bool isOffloadPolicy(CheckpointPolicy policy);

/// torch 2.x's activation-offloading pass (config.enable_activation_offloading), run after a
/// partition. 2.14 offloads the forward nodes marked meta["should_offload"], which only a
/// joint_custom_pass sets; we take every node whose own tag (`tags`: the file's, overridden by the
/// user's, before the cleanup passes) is an offload policy as marked. Of those, choose_offload_sets
/// keeps the ones can_offload accepts: values the forward returns that are not model outputs,
/// static inputs, views, getitems or non-contiguous tensors. Fills result.offloaded (joint order),
/// result.offloadRefused (with 2.14's reason, or ours for a tagged node the forward never computes)
/// and result.offloadedBytes. The saved values do not change: the pass runs after the cut.
void chooseOffloadSets(const JointGraph& graph, const OpCategories& ops,
    const std::vector<CheckpointPolicy>& tags, PartitionResult& result);

} // namespace remat
