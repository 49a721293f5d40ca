// SPDX-License-Identifier: MIT
// cost_aware mode: one partition per op node, then greedily merge the pair of partitions that
// lowers the critical-path latency most (ties: the later pair), until no merge helps.
#include "devices/accelerator_partitioner.h"
#include "devices/latency_model.h"
#include "devices/partition_ops.h"

#include <cstdlib>
#include <limits>

namespace remat::devices {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

} // namespace

void AcceleratorPartitioner::costAwarePartition()
{
    const double rate = m_config.transferRateBytesPerSec;
    const auto& latency = m_config.nodeLatency;
    auto graphLatency = [&](const PartitionList& partitions) {
        return criticalPathLatency(partitions, partitionLatencies(partitions, m_fwd, latency), m_graph, rate);
    };

    // Merges partitions i and j in `trial`, a copy of the list holding the same partitions (so,
    // as in PyTorch, their ids, neighbours and devices change until the list is reorganized).
    auto tryCombining = [&](std::size_t i, std::size_t j, PartitionList trial) {
        const PartitionPtr p0 = trial[i];
        const PartitionPtr p1 = trial[j];
        const bool mergeable = std::abs(p0->bfsLevel - p1->bfsLevel) <= 1 || p1->parents.contains(p0.get())
            || p1->children.contains(p0.get());
        if (!mergeable)
            return kInfinity;
        combineTwoPartitions(p0, p1, trial, m_graph);
        if (hasCircularDependency(*trial.back()))
            return kInfinity;
        resetPartitionDevices(trial);
        if (!mapPartitionsToDevices(trial, m_config.devices, m_graph))
            return kInfinity;
        return graphLatency(trial);
    };

    auto searchCombination = [&]() {
        double cost = graphLatency(m_partitions);
        if (m_partitions.size() == 1)
            return false;
        std::optional<std::pair<std::size_t, std::size_t>> best;
        for (std::size_t i = 0; i + 1 < m_partitions.size(); ++i) {
            for (std::size_t j = i + 1; j < m_partitions.size(); ++j) {
                const double newCost = tryCombining(i, j, m_partitions);
                if (newCost <= cost) {
                    best = {i, j};
                    cost = newCost;
                }
                reorganizePartitions(m_partitions, m_fwd);
            }
        }
        if (best)
            combineTwoPartitions(
                m_partitions[best->first], m_partitions[best->second], m_partitions, m_graph);
        assignBfsLevels(m_partitions);
        resetPartitionDevices(m_partitions);
        mapPartitionsToDevices(m_partitions, m_config.devices, m_graph);
        return best.has_value();
    };

    for (NodeId n : m_fwd.nodes()) {
        if (m_fwd.isOp(n))
            createSingleNodePartition(n);
    }
    setParentsAndChildren(m_partitions, m_fwd);
    assignBfsLevels(m_partitions);
    while (searchCombination()) { }
    reorganizePartitions(m_partitions, m_fwd);
    m_nodeToPartition = nodeToPartitionMap(m_partitions);
}

} // namespace remat::devices
