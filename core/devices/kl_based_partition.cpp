// SPDX-License-Identifier: MIT
// kl_based mode (Kernighan-Lin style): size_based first, then for each op node try moving it to
// every other partition or swapping it with each of that partition's op nodes, and keep a swap
// that lowers the critical-path latency.
//
// PyTorch 1.13's quirks are kept on purpose: the node -> partition map is the one size_based
// made (it is never refreshed, so the split module follows it); the cost a partition reports is
// its last trial's (moving the node without a swap), not its best; and the chosen pair is not
// reset between nodes. PyTorch walks a partition's nodes in set order; we walk them in graph
// order, so where two swaps tie on latency the one we keep may differ.
#include "devices/accelerator_partitioner.h"
#include "devices/latency_model.h"
#include "devices/partition_ops.h"

#include <limits>

namespace remat::devices {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

struct SwapPair {
    NodeId moved = kNoNode;
    NodeId swappedBack = kNoNode; ///< kNoNode: a move without a swap
};

void swapNodes(NodeId n0, NodeId n1, Partition& p0, Partition& p1, const SizedGraph& graph)
{
    if (n0 != kNoNode) {
        p0.removeNode(n0, graph);
        p1.addNode(n0, graph);
    }
    if (n1 != kNoNode) {
        p0.addNode(n1, graph);
        p1.removeNode(n1, graph);
    }
}

} // namespace

void AcceleratorPartitioner::klBasedPartition()
{
    const double rate = m_config.transferRateBytesPerSec;
    const auto& latency = m_config.nodeLatency;
    const auto& devices = m_config.devices;
    auto graphLatency = [&](const PartitionLatencyMap& latencies) {
        return criticalPathLatency(m_partitions, latencies, m_graph, rate);
    };

    auto trySwap = [&](NodeId n0, NodeId n1, Partition& p0, Partition& p1) {
        double cost = kInfinity;
        swapNodes(n0, n1, p0, p1, m_graph);
        reorganizePartitions(m_partitions, m_fwd);
        if (!hasCircularDependency(p0) && !hasCircularDependency(p1)) {
            resetPartitionDevices(m_partitions);
            const PartitionLatencyMap latencies = partitionLatencies(m_partitions, m_fwd, latency);
            if (mapPartitionsToDevices(m_partitions, devices, m_graph))
                cost = graphLatency(latencies);
        }
        swapNodes(n1, n0, p0, p1, m_graph);
        reorganizePartitions(m_partitions, m_fwd);
        resetPartitionDevices(m_partitions);
        mapPartitionsToDevices(m_partitions, devices, m_graph);
        return cost;
    };

    // Returns the last trial's cost (PyTorch's quirk) and the best pair.
    auto swapNodeToPartition = [&](NodeId n, Partition& p0, Partition& p1) {
        std::vector<NodeId> candidates(p1.nodes.begin(), p1.nodes.end());
        candidates.push_back(kNoNode);
        double minCost = kInfinity, cost = kInfinity;
        std::optional<SwapPair> pair;
        for (NodeId n1 : candidates) {
            if (n1 != kNoNode && m_fwd.isInputOrConstant(n1))
                continue;
            cost = trySwap(n, n1, p0, p1);
            if (cost < minCost) {
                pair = SwapPair {n, n1};
                minCost = cost;
            }
        }
        return std::pair {cost, pair};
    };

    sizeBasedPartition();
    double cost = graphLatency(partitionLatencies(m_partitions, m_fwd, latency));
    std::optional<SwapPair> chosen;
    Partition* chosenFrom = nullptr;
    Partition* chosenTo = nullptr;
    for (NodeId n : m_fwd.nodes()) {
        if (!m_fwd.isOp(n))
            continue;
        const auto p0Index = static_cast<std::size_t>(m_nodeToPartition.at(n));
        Partition& p0 = *m_partitions[p0Index];
        for (std::size_t p1Index = 0; p1Index < m_partitions.size(); ++p1Index) {
            if (p1Index == p0Index)
                continue;
            Partition& p1 = *m_partitions[p1Index];
            const auto [newCost, newPair] = swapNodeToPartition(n, p0, p1);
            if (newCost < cost) {
                cost = newCost;
                chosen = newPair;
                chosenFrom = &p0;
                chosenTo = &p1;
            }
        }
        if (chosen) {
            swapNodes(chosen->moved, chosen->swappedBack, *chosenFrom, *chosenTo, m_graph);
            reorganizePartitions(m_partitions, m_fwd);
            mapPartitionsToDevices(m_partitions, devices, m_graph);
        }
    }
    reorganizePartitions(m_partitions, m_fwd);
    mapPartitionsToDevices(m_partitions, devices, m_graph);
}

} // namespace remat::devices
