// SPDX-License-Identifier: MIT
#pragma once

#include "devices/partition.h"

#include <map>
#include <string>
#include <vector>

namespace remat::devices {

/// One entry of the DAG PyTorch returns: a submodule of the split module, in the order
/// split_module emits them, with its partition's devices and memory.
struct DagNode {
    std::string submodule; ///< "submod_<partition id>"
    int partitionId = 0;
    std::vector<int> logicalDeviceIds;
    std::int64_t sizeBytes = 0;
};

/// The order torch.fx.passes.split_module emits the partitions in (a topological order found
/// with a stack), and how many nodes the split module's graph has.
struct SplitModuleShape {
    std::vector<int> partitionOrder;
    int graphNodes = 0;
};

/// Throws PyTorch's "cycle exists between partitions!" and names an op node with no partition.
SplitModuleShape splitModuleShape(const ForwardGraph& graph, const std::map<NodeId, int>& nodeToPartition);

/// dump_dag: each submodule's partition is looked up by its id as a list index, as PyTorch does.
std::vector<DagNode> dumpDag(const SplitModuleShape& shape, const PartitionList& partitions);

} // namespace remat::devices
