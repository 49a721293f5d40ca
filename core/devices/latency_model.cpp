// SPDX-License-Identifier: MIT
#include "devices/latency_model.h"

#include "devices/node_error.h"

#include <algorithm>

namespace remat::devices {
namespace {

const NodeLatency& latencyOf(NodeId n, const ForwardGraph& graph, const NodeLatencyTable& latency)
{
    const auto index = static_cast<std::size_t>(n);
    if (index >= latency.size() || !latency[index])
        throw NodeError("node \"" + graph.name(n) + "\" has no entry in node_latency (PyTorch: KeyError)", n);
    return *latency[index];
}

/// dfs_helper of get_latency_of_one_partition: users are visited in graph order (PyTorch's set
/// order differs only where two paths tie on overall latency).
PartitionLatency pathLatency(NodeId n, PartitionLatency sofar, const Partition& partition,
    const ForwardGraph& graph, const NodeLatencyTable& latency)
{
    const NodeLatency& own = latencyOf(n, graph, latency);
    sofar.overallLatencySec += std::max(own.computerLatencySec, own.memLatencySec);
    sofar.memLatencySec += own.memLatencySec;
    sofar.computerLatencySec += own.computerLatencySec;
    PartitionLatency longest;
    bool anyUser = false;
    for (NodeId user : graph.users(n)) {
        if (!partition.nodes.contains(user))
            continue;
        anyUser = true;
        const PartitionLatency path = pathLatency(user, sofar, partition, graph, latency);
        if (path.overallLatencySec > longest.overallLatencySec)
            longest = path;
    }
    return anyUser ? longest : sofar;
}

bool isTopNode(NodeId n, const Partition& partition, const ForwardGraph& graph)
{
    const auto& inputs = graph.inputs(n);
    return std::none_of(inputs.begin(), inputs.end(),
        [&](NodeId input) { return partition.nodes.contains(input) && !graph.isInputOrConstant(input); });
}

} // namespace

PartitionLatency partitionLatency(
    const Partition& partition, const ForwardGraph& graph, const NodeLatencyTable& latency)
{
    PartitionLatency critical;
    for (NodeId n : partition.nodes) {
        if (graph.isInputOrConstant(n) || !isTopNode(n, partition, graph))
            continue;
        const PartitionLatency path = pathLatency(n, PartitionLatency {}, partition, graph, latency);
        if (path.overallLatencySec > critical.overallLatencySec)
            critical = path;
    }
    return critical;
}

PartitionLatencyMap partitionLatencies(
    const PartitionList& partitions, const ForwardGraph& graph, const NodeLatencyTable& latency)
{
    PartitionLatencyMap map;
    for (const auto& p : partitions)
        map[p.get()] = partitionLatency(*p, graph, latency);
    return map;
}

double communicationLatency(
    const Partition& parent, const Partition& child, const SizedGraph& graph, double transferRateBytesPerSec)
{
    if (!parent.logicalDeviceIds.empty() && parent.logicalDeviceIds == child.logicalDeviceIds)
        return 0.0;
    NodeSet counted;
    std::int64_t bytes = 0;
    for (NodeId n : child.nodes) {
        for (NodeId input : graph.graph().inputs(n)) {
            if (parent.nodes.contains(input) && counted.insert(input).second)
                bytes += graph.size(input).outputSize;
        }
    }
    if (transferRateBytesPerSec == 0.0)
        throw Error("float division by zero: partitions " + std::to_string(parent.id) + " and "
            + std::to_string(child.id) + " are on different devices and the transfer rate is 0");
    return static_cast<double>(bytes) / transferRateBytesPerSec;
}

namespace {

/// The longest path on from `partition`: its latency and its partitions (a tie keeps the first).
CriticalPath longestPathFrom(const Partition& partition, double sofar, const PartitionLatencyMap& latencies,
    const SizedGraph& graph, double rate)
{
    sofar += latencies.at(&partition).overallLatencySec;
    CriticalPath longest;
    for (const Partition* child : partition.children) {
        const double comm = communicationLatency(partition, *child, graph, rate);
        CriticalPath path = longestPathFrom(*child, sofar + comm, latencies, graph, rate);
        if (path.latencySec > longest.latencySec)
            longest = std::move(path);
    }
    if (partition.children.empty())
        longest.latencySec = sofar;
    longest.partitions.insert(longest.partitions.begin(), &partition);
    return longest;
}

} // namespace

CriticalPath criticalPath(const PartitionList& partitions, const PartitionLatencyMap& latencies,
    const SizedGraph& graph, double transferRateBytesPerSec)
{
    CriticalPath critical;
    for (const auto& p : partitions) {
        if (!p->parents.empty())
            continue;
        CriticalPath path = longestPathFrom(*p, 0.0, latencies, graph, transferRateBytesPerSec);
        if (path.latencySec > critical.latencySec)
            critical = std::move(path);
    }
    return critical;
}

double criticalPathLatency(const PartitionList& partitions, const PartitionLatencyMap& latencies,
    const SizedGraph& graph, double transferRateBytesPerSec)
{
    return criticalPath(partitions, latencies, graph, transferRateBytesPerSec).latencySec;
}

} // namespace remat::devices
