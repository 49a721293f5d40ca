// SPDX-License-Identifier: MIT
#pragma once

#include "devices/device_config.h"
#include "devices/forward_graph.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace remat::devices {

/// One entry of a forward graph's "modules" table: what PyTorch's partitioner reads of the
/// submodule a call_module node calls.
struct ModuleInfo {
    std::string type;
    std::string repr; ///< str(module): sparse_nn looks for "Embedding" in it
    std::int64_t parameterElements = 0; ///< Σ numel of module.named_parameters()
};

/// The tables of a forward-only graph file beside its nodes (joint-graph format, section on
/// forward-only graphs), keyed by names as in the file. All optional.
struct ForwardTables {
    std::map<std::string, ModuleInfo> modules;
    std::map<std::string, NodeLatency> nodeLatency;
    /// aot_partition.node_to_partition in file order.
    std::vector<std::pair<std::string, int>> nodeToPartition;
    std::map<int, std::vector<int>> partitionToLogicalDevices;
};

/// Reads "modules", "node_latency" and "aot_partition" of a graph file (other keys are the graph
/// reader's). Throws remat::Error naming the file and the key when one is malformed.
ForwardTables parseForwardTables(const std::string& text, const std::string& fileName);

/// node_latency resolved to node ids; throws naming a node the graph does not have.
NodeLatencyTable resolveNodeLatency(
    const ForwardTables& tables, const ForwardGraph& graph, const std::string& fileName);

/// aot_partition resolved to node ids, into `config`; throws naming an unknown node.
void resolveAotPartition(const ForwardTables& tables, const ForwardGraph& graph, const std::string& fileName,
    PartitionerConfig& config);

} // namespace remat::devices
