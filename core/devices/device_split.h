// SPDX-License-Identifier: MIT
#pragma once

#include "devices/accelerator_partitioner.h"
#include "devices/forward_tables.h"
#include "devices/latency_model.h"
#include "graph/joint_graph.h"

#include <memory>
#include <string>
#include <vector>

namespace remat::devices {

/// A graph file ready for the accelerator partitioner: the graph, its forward part, its tables
/// (modules, node_latency, aot_partition) and every node's size. Not copyable (parts refer to
/// each other).
class DeviceSplitInput {
public:
    /// Loads a joint or forward-only graph: a JSON file (with its node_latency, aot_partition and
    /// modules tables), a printed graph, or the compiled graph `traceGraph` of a TORCH_TRACE log
    /// file or folder (empty: its only joint graph). Throws remat::Error naming the file.
    explicit DeviceSplitInput(const std::string& path, const std::string& traceGraph = {});
    DeviceSplitInput(JointGraph graph, ForwardTables tables, const std::string& fileName);
    DeviceSplitInput(const DeviceSplitInput&) = delete;
    DeviceSplitInput& operator=(const DeviceSplitInput&) = delete;

    const JointGraph& graph() const { return *m_graph; }
    const ForwardGraph& forward() const { return *m_forward; }
    const SizedGraph& sized() const { return *m_sized; }
    const ForwardTables& tables() const { return m_tables; }
    const std::string& fileName() const { return m_fileName; }
    bool hasNodeLatency() const { return !m_tables.nodeLatency.empty(); }

    /// A config for these devices and mode, with the file's node_latency and aot_partition.
    PartitionerConfig config(
        std::vector<Device> devices, PartitionMode mode, double transferRate, bool saturateHost) const;

private:
    DeviceSplitInput(const std::string& path, const std::string& text, const std::string& traceGraph);

    std::string m_fileName;
    std::unique_ptr<JointGraph> m_graph;
    ForwardTables m_tables;
    std::unique_ptr<ForwardGraph> m_forward;
    std::unique_ptr<SizedGraph> m_sized;
};

/// A partitioning and its latency report.
struct DeviceSplit {
    DevicePartitionResult result;
    std::vector<PartitionLatency> latency; ///< per partition, in list order
    double criticalPathLatencySec = 0.0;
    std::vector<int> criticalPath; ///< indices into result.partitions, first to last
};

/// For each node id of the graph, the index (into split.result.partitions) of the first partition
/// holding it, or -1: what the canvas colours nodes by.
std::vector<int> partitionIndexPerNode(const DeviceSplit& split, std::size_t graphSize);

/// Runs the partitioner, then the latency model on its partitions. A node without latency
/// counts as zero here (the modes that need latencies fail on it first); a transfer rate of 0
/// counts communication as free rather than dividing by zero as PyTorch would.
DeviceSplit splitAcrossDevices(const DeviceSplitInput& input, const PartitionerConfig& config);

/// Devices "dev_0".."dev_<n-1>" with logical ids 0..n-1 in the order given.
std::vector<Device> devicesFromSizes(const std::vector<std::int64_t>& sizes);

} // namespace remat::devices
