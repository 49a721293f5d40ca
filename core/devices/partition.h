// SPDX-License-Identifier: MIT
#pragma once

#include "devices/node_sizes.h"

#include <cstdint>
#include <memory>
#include <set>
#include <vector>

namespace remat::devices {

/// One partition as torch.fx's partitioner_utils.Partition keeps it. Partitions are shared
/// (cost_aware tries merges on a copy of the list that holds the same partitions), so they live
/// behind shared pointers and refer to each other by address.
struct Partition {
    explicit Partition(int partitionId)
        : id(partitionId)
    { }

    int id = 0;
    NodeSet nodes;
    std::set<Partition*> parents;
    std::set<Partition*> children;
    int bfsLevel = -1;
    std::int64_t usedMemBytes = 0;
    std::vector<int> logicalDeviceIds;

    /// used_mem = Σ get_extra_size_of(node, nodes) over the nodes.
    void recalculateMemSize(const SizedGraph& graph);
    /// Adds the node and its placeholder/get_attr inputs.
    void addNode(NodeId n, const SizedGraph& graph);
    /// Removes the node (if present) and each placeholder/get_attr input no node here still uses.
    void removeNode(NodeId n, const SizedGraph& graph);
};

using PartitionPtr = std::shared_ptr<Partition>;
using PartitionList = std::vector<PartitionPtr>;

} // namespace remat::devices
