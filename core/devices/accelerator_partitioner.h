// SPDX-License-Identifier: MIT
#pragma once

#include "devices/device_config.h"
#include "devices/partition.h"
#include "devices/split_order.h"

#include <map>

namespace remat::devices {

/// What Partitioner.partition_graph leaves behind: its partitions (partitioner.partitions), the
/// node -> partition map it splits the module by, and the DAG of the split module.
struct DevicePartitionResult {
    PartitionList partitions;
    std::map<NodeId, int> nodeToPartition;
    std::vector<DagNode> dag;
    /// Nodes of the split module's graph (PyTorch's test_sparse_nn_partition counts them).
    int splitModuleNodes = 0;
};

/// torch.fx.experimental.accelerator_partitioner.Partitioner, ported: the same modes, the same
/// decisions and PyTorch's own error messages (thrown as remat::Error). Where PyTorch iterates
/// a set, we iterate in graph order (see README, "devices").
class AcceleratorPartitioner {
public:
    AcceleratorPartitioner(const SizedGraph& graph, PartitionerConfig config);

    DevicePartitionResult partitionGraph();

private:
    void findSinglePartition(std::int64_t totalSize, int logicalDeviceId);
    void sizeBasedPartition();
    void sparseNnPartition(std::int64_t availableMemBytes);
    void costAwarePartition();
    void klBasedPartition();
    void aotBasedPartition();
    void saturateHost();

    PartitionPtr createPartition();
    void createSingleNodePartition(NodeId n);

    const SizedGraph& m_graph;
    const ForwardGraph& m_fwd;
    PartitionerConfig m_config;
    PartitionList m_partitions;
    std::map<NodeId, int> m_nodeToPartition;
};

} // namespace remat::devices
