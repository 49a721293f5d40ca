// SPDX-License-Identifier: MIT
#include "devices/accelerator_partitioner.h"

#include "devices/partition_ops.h"
#include "graph/error.h"

#include <algorithm>
#include <numeric>

namespace remat::devices {

AcceleratorPartitioner::AcceleratorPartitioner(const SizedGraph& graph, PartitionerConfig config)
    : m_graph(graph)
    , m_fwd(graph.graph())
    , m_config(std::move(config))
{ }

DevicePartitionResult AcceleratorPartitioner::partitionGraph()
{
    const auto& devices = m_config.devices;
    if (devices.empty())
        throw Error("No devices");
    const auto& nodes = m_fwd.nodes();
    if (std::none_of(nodes.begin(), nodes.end(), [&](NodeId n) { return m_fwd.isOp(n); }))
        throw Error("No Partition since no operations in the module");
    const std::int64_t totalSize = m_graph.totalSize();
    // max() keeps the first of equally large devices.
    const Device& largest = *std::max_element(devices.begin(), devices.end(),
        [](const Device& a, const Device& b) { return a.availableMemBytes < b.availableMemBytes; });
    const std::int64_t allMemory = std::accumulate(devices.begin(), devices.end(), std::int64_t {0},
        [](std::int64_t sum, const Device& d) { return sum + d.availableMemBytes; });

    if (m_config.mode == PartitionMode::AotBased) {
        aotBasedPartition();
    } else if (totalSize <= largest.availableMemBytes) {
        findSinglePartition(totalSize, largest.logicalId);
    } else if (totalSize > allMemory) {
        throw Error("Devices have no enough memory for the module");
    } else if (m_config.mode == PartitionMode::SparseNn) {
        const std::int64_t memory = devices.front().availableMemBytes;
        if (std::any_of(devices.begin(), devices.end(),
                [&](const Device& d) { return d.availableMemBytes != memory; }))
            throw Error("All devices must have same memory size!");
        sparseNnPartition(memory);
    } else if (m_config.mode == PartitionMode::CostAware) {
        costAwarePartition();
    } else if (m_config.mode == PartitionMode::KlBased) {
        klBasedPartition();
    } else {
        sizeBasedPartition();
    }
    if (m_config.saturateHost)
        saturateHost();

    DevicePartitionResult result;
    const SplitModuleShape shape = splitModuleShape(m_fwd, m_nodeToPartition);
    result.dag = dumpDag(shape, m_partitions);
    result.splitModuleNodes = shape.graphNodes;
    result.partitions = m_partitions;
    result.nodeToPartition = m_nodeToPartition;
    return result;
}

PartitionPtr AcceleratorPartitioner::createPartition()
{
    auto partition = std::make_shared<Partition>(static_cast<int>(m_partitions.size()));
    m_partitions.push_back(partition);
    return partition;
}

void AcceleratorPartitioner::createSingleNodePartition(NodeId n)
{
    createPartition()->addNode(n, m_graph);
}

void AcceleratorPartitioner::findSinglePartition(std::int64_t totalSize, int logicalDeviceId)
{
    const PartitionPtr partition = createPartition();
    partition->nodes.insert(m_fwd.nodes().begin(), m_fwd.nodes().end());
    partition->usedMemBytes = totalSize;
    partition->logicalDeviceIds = {logicalDeviceId};
    m_nodeToPartition = nodeToPartitionMap(m_partitions);
}

void AcceleratorPartitioner::aotBasedPartition()
{
    std::map<int, PartitionPtr> byId;
    for (const auto& [node, id] : m_config.nodeToPartition) {
        PartitionPtr& partition = byId[id];
        if (!partition) {
            partition = std::make_shared<Partition>(id);
            m_partitions.push_back(partition);
            const auto devices = m_config.partitionToLogicalDevices.find(id);
            if (devices == m_config.partitionToLogicalDevices.end())
                throw Error("aot_partition: partition " + std::to_string(id)
                    + " has no entry in partition_to_logical_devices (PyTorch: KeyError)");
            partition->logicalDeviceIds = devices->second;
        }
        partition->addNode(node, m_graph);
        m_nodeToPartition[node] = id;
    }
}

} // namespace remat::devices
