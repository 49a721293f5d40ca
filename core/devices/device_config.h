// SPDX-License-Identifier: MIT
#pragma once

#include "graph/arg.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace remat::devices {

/// torch.fx.experimental.partitioner_utils.Device: one accelerator and the memory it offers.
struct Device {
    std::string name;
    std::int64_t availableMemBytes = 0;
    int logicalId = 0;

    bool operator==(const Device&) const = default; // a NamedTuple: equal when all fields are
};

/// What one node costs to run (user supplied, PyTorch's NodeLatency).
struct NodeLatency {
    double memLatencySec = 0.0;
    double computerLatencySec = 0.0;
};

/// The critical path of one partition (PyTorch's PartitionLatency).
struct PartitionLatency {
    double memLatencySec = 0.0;
    double computerLatencySec = 0.0;
    double overallLatencySec = 0.0;
};

enum class PartitionMode { SizeBased, SparseNn, CostAware, KlBased, AotBased };

std::string_view partitionModeName(PartitionMode mode);
std::optional<PartitionMode> parsePartitionMode(std::string_view name);

/// One latency per node id of the graph; nullopt where the table has none.
using NodeLatencyTable = std::vector<std::optional<NodeLatency>>;

/// PyTorch's PartitionerConfig. The node-keyed tables use the graph's node ids.
struct PartitionerConfig {
    std::vector<Device> devices;
    PartitionMode mode = PartitionMode::SizeBased;
    double transferRateBytesPerSec = 0.0;
    NodeLatencyTable nodeLatency;
    /// aot_based: node -> partition id, in the order the mapping was given (PyTorch iterates a dict).
    std::vector<std::pair<NodeId, int>> nodeToPartition;
    std::map<int, std::vector<int>> partitionToLogicalDevices;
    bool saturateHost = false;
};

} // namespace remat::devices
