// SPDX-License-Identifier: MIT
#pragma once

#include "devices/device_config.h"
#include "devices/partition.h"

#include <map>

namespace remat::devices {

// The helpers accelerator_partitioner.py builds its modes from, with the same semantics.

/// Renumbers ids by list position and recomputes parents/children.
void reorganizePartitions(const PartitionList& partitions, const ForwardGraph& graph);
/// P is a parent of Q when a node of P, not itself in Q, has a user in Q.
void setParentsAndChildren(const PartitionList& partitions, const ForwardGraph& graph);
/// BFS levels from the parentless partitions; a partition reached again later takes the later level.
void assignBfsLevels(const PartitionList& partitions);
/// A new partition (id = list size) with both partitions' nodes replaces them at the list's end.
/// By value: callers pass elements of `partitions`, which this reorders.
void combineTwoPartitions(
    PartitionPtr first, PartitionPtr second, PartitionList& partitions, const SizedGraph& graph);
/// True when following children from `partition` comes back to it.
bool hasCircularDependency(const Partition& partition);
void resetPartitionDevices(const PartitionList& partitions);
/// Every node -> the id of the partition holding it (a later partition wins, as in PyTorch).
std::map<NodeId, int> nodeToPartitionMap(const PartitionList& partitions);

/// get_device_partition_stats: per device (index into `devices`), its partitions and memory left;
/// and the partitions without a device.
struct DevicePartitionStats {
    std::vector<std::vector<Partition*>> partitionsOn;
    std::vector<std::int64_t> memLeft;
    std::vector<Partition*> withoutDevice;
};
DevicePartitionStats devicePartitionStats(
    const PartitionList& partitions, const std::vector<Device>& devices);

/// get_device_to_partitions_mapping: gives each partition without a device the device with the
/// least memory left that still has strictly more than the partition adds to it. False at the
/// first partition that fits nowhere.
bool mapPartitionsToDevices(
    const PartitionList& partitions, const std::vector<Device>& devices, const SizedGraph& graph);

} // namespace remat::devices
