// SPDX-License-Identifier: MIT
#include "devices/device_split.h"

#include "devices/node_error.h"
#include "io/file_text.h"
#include "io/graph_loader.h"
#include "io/torch_trace_log.h"

#include <algorithm>
#include <limits>

namespace remat::devices {
namespace {

/// PyTorch's sizes, or its refusal with the file named and, for a node with several outputs (a
/// joint graph's native_layer_norm, say), why torch.fx would refuse it too and what to split instead.
std::unique_ptr<SizedGraph> sizeNodes(const ForwardGraph& forward,
    const std::map<std::string, ModuleInfo>& modules, const std::string& fileName)
{
    try {
        return std::make_unique<SizedGraph>(forward, modules);
    } catch (const NodeError& e) {
        std::string message = fileName + ": " + e.what();
        if (forward.graph().node(e.node()).valueKind == ValueKind::TensorList)
            message += " (it returns several tensors, and torch.fx's accelerator partitioner sizes a node by "
                       "its one tensor: split a forward graph traced by torch.fx, as "
                       "samples/export_forward_graph.py writes, rather than a joint graph)";
        throw NodeError(message, e.node());
    }
}

} // namespace

DeviceSplitInput::DeviceSplitInput(const std::string& path, const std::string& traceGraph)
    // A TORCH_TRACE folder has no text of its own: the loader finds its log (it had "cannot read:
    // it is a folder").
    : DeviceSplitInput(path, trace::isTorchTracePath(path) ? std::string() : readFileText(path), traceGraph)
{ }

DeviceSplitInput::DeviceSplitInput(
    const std::string& path, const std::string& text, const std::string& traceGraph)
    : DeviceSplitInput(text.empty() ? loadGraphFile(path, traceGraph) : loadGraphText(text, path, traceGraph),
        looksLikeJson(text) ? parseForwardTables(text, path) : ForwardTables {}, path)
{ }

DeviceSplitInput::DeviceSplitInput(JointGraph graph, ForwardTables tables, const std::string& fileName)
    : m_fileName(fileName)
    , m_graph(std::make_unique<JointGraph>(std::move(graph)))
    , m_tables(std::move(tables))
    , m_forward(std::make_unique<ForwardGraph>(*m_graph))
    , m_sized(sizeNodes(*m_forward, m_tables.modules, fileName))
{ }

PartitionerConfig DeviceSplitInput::config(
    std::vector<Device> devices, PartitionMode mode, double transferRate, bool saturateHost) const
{
    PartitionerConfig config;
    config.devices = std::move(devices);
    config.mode = mode;
    config.transferRateBytesPerSec = transferRate;
    config.saturateHost = saturateHost;
    config.nodeLatency = resolveNodeLatency(m_tables, *m_forward, m_fileName);
    resolveAotPartition(m_tables, *m_forward, m_fileName, config);
    return config;
}

DeviceSplit splitAcrossDevices(const DeviceSplitInput& input, const PartitionerConfig& config)
{
    DeviceSplit split;
    split.result = AcceleratorPartitioner(input.sized(), config).partitionGraph();
    NodeLatencyTable latency = config.nodeLatency;
    latency.resize(input.graph().size());
    for (NodeId n : input.forward().nodes()) {
        auto& entry = latency[static_cast<std::size_t>(n)];
        if (!entry)
            entry = NodeLatency {};
    }
    const PartitionLatencyMap latencies
        = partitionLatencies(split.result.partitions, input.forward(), latency);
    for (const auto& p : split.result.partitions)
        split.latency.push_back(latencies.at(p.get()));
    const double rate = config.transferRateBytesPerSec > 0.0 ? config.transferRateBytesPerSec
                                                             : std::numeric_limits<double>::infinity();
    const CriticalPath critical = criticalPath(split.result.partitions, latencies, input.sized(), rate);
    split.criticalPathLatencySec = critical.latencySec;
    const auto& partitions = split.result.partitions;
    for (const Partition* p : critical.partitions) {
        const auto at = std::find_if(
            partitions.begin(), partitions.end(), [&](const PartitionPtr& q) { return q.get() == p; });
        split.criticalPath.push_back(static_cast<int>(at - partitions.begin()));
    }
    return split;
}

std::vector<int> partitionIndexPerNode(const DeviceSplit& split, std::size_t graphSize)
{
    std::vector<int> index(graphSize, -1);
    const auto& partitions = split.result.partitions;
    for (std::size_t i = partitions.size(); i-- > 0;) {
        for (NodeId n : partitions[i]->nodes)
            index[static_cast<std::size_t>(n)] = static_cast<int>(i);
    }
    return index;
}

std::vector<Device> devicesFromSizes(const std::vector<std::int64_t>& sizes)
{
    std::vector<Device> devices;
    for (std::size_t i = 0; i < sizes.size(); ++i)
        devices.push_back(Device {"dev_" + std::to_string(i), sizes[i], static_cast<int>(i)});
    return devices;
}

} // namespace remat::devices
