// SPDX-License-Identifier: MIT
// size_based mode: fill a device, then the next; once every device is used, one partition per node.
#include "devices/accelerator_partitioner.h"
#include "devices/node_error.h"
#include "devices/partition_ops.h"

#include <algorithm>

namespace remat::devices {

void AcceleratorPartitioner::sizeBasedPartition()
{
    const auto& devices = m_config.devices;
    std::vector<const Device*> occupied;
    std::map<const Partition*, std::int64_t> memLeft;

    // The first device not yet used that holds the node on its own.
    auto deviceFor = [&](NodeId n) -> const Device& {
        const std::int64_t needed = m_graph.extraSizeOf(n, {});
        for (const Device& d : devices) {
            const bool used
                = std::any_of(occupied.begin(), occupied.end(), [&](const Device* o) { return *o == d; });
            if (!used && d.availableMemBytes >= needed) {
                occupied.push_back(&d);
                return d;
            }
        }
        throw NodeError(m_fwd.name(n) + "is too large to fit any device", n);
    };

    PartitionPtr partition = createPartition();
    for (NodeId n : m_fwd.nodes()) {
        if (!m_fwd.isOp(n))
            continue;
        if (m_partitions.size() > devices.size()) {
            createSingleNodePartition(n);
            continue;
        }
        std::int64_t needed = m_graph.extraSizeOf(n, partition->nodes);
        if (partition->usedMemBytes == 0) {
            const Device& device = deviceFor(n);
            memLeft[partition.get()] = device.availableMemBytes;
            partition->logicalDeviceIds.push_back(device.logicalId);
        } else if (memLeft[partition.get()] < needed) {
            if (m_partitions.size() == devices.size()) {
                createSingleNodePartition(n);
                continue;
            }
            const Device& device = deviceFor(n);
            partition = createPartition();
            needed = m_graph.extraSizeOf(n, partition->nodes);
            memLeft[partition.get()] = device.availableMemBytes;
            partition->logicalDeviceIds.push_back(device.logicalId);
        }
        partition->addNode(n, m_graph);
        memLeft[partition.get()] -= needed;
    }
    reorganizePartitions(m_partitions, m_fwd);
    m_nodeToPartition = nodeToPartitionMap(m_partitions);
    if (!mapPartitionsToDevices(m_partitions, devices, m_graph))
        throw Error("Cannot Get a Valid Partition to Logical Device Mapping");
}

} // namespace remat::devices
