// SPDX-License-Identifier: MIT
#pragma once

#include "devices/device_config.h"
#include "devices/partition.h"

#include <map>

namespace remat::devices {

// partitioner_utils.py's latency model.

/// The partition's critical path: from each top node (no op input inside the partition), along
/// users inside it, summing mem, compute and max(mem, compute); the path with the largest sum.
/// Throws naming a node the table has no latency for.
PartitionLatency partitionLatency(
    const Partition& partition, const ForwardGraph& graph, const NodeLatencyTable& latency);

using PartitionLatencyMap = std::map<const Partition*, PartitionLatency>;
PartitionLatencyMap partitionLatencies(
    const PartitionList& partitions, const ForwardGraph& graph, const NodeLatencyTable& latency);

/// Bytes the child reads from the parent divided by the rate; 0 when both sit on the same devices.
/// Throws as Python does (float division by zero) when the rate is 0 and they do not.
double communicationLatency(
    const Partition& parent, const Partition& child, const SizedGraph& graph, double transferRateBytesPerSec);

/// The critical path and the partitions along it (empty when every latency is 0).
struct CriticalPath {
    double latencySec = 0.0;
    std::vector<const Partition*> partitions;
};
CriticalPath criticalPath(const PartitionList& partitions, const PartitionLatencyMap& latencies,
    const SizedGraph& graph, double transferRateBytesPerSec);

/// The longest path over partitions from the parentless ones: partition latencies plus
/// communication on each edge.
double criticalPathLatency(const PartitionList& partitions, const PartitionLatencyMap& latencies,
    const SizedGraph& graph, double transferRateBytesPerSec);

} // namespace remat::devices
