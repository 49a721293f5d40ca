// SPDX-License-Identifier: MIT
#pragma once

#include "graph/joint_graph.h"
#include "partition/partition_options.h"
#include "partition/partition_result.h"

namespace remat {

/// Partitions a joint graph into forward and backward as PyTorch's default_partition or
/// min_cut_rematerialization_partition would, under the chosen rule set.
/// Throws remat::Error when the graph cannot be partitioned (the message says why).
PartitionResult partitionGraph(const JointGraph& graph, const PartitionOptions& options);

/// Why a forward-only graph cannot be partitioned, with where its joint graph is when PyTorch
/// printed it after partitioning (TORCH_LOGS=aot_graphs).
std::string forwardOnlyMessage(const JointGraph& graph);

} // namespace remat
