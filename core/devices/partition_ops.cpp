// SPDX-License-Identifier: MIT
#include "devices/partition_ops.h"

#include "graph/error.h"

#include <algorithm>
#include <deque>
#include <numeric>

namespace remat::devices {

void setParentsAndChildren(const PartitionList& partitions, const ForwardGraph& graph)
{
    // Which partitions hold each node (a node may sit in several: shared inputs), so that a
    // user's partitions are found without scanning the list for every edge.
    std::map<NodeId, std::vector<Partition*>> holders;
    for (const auto& p : partitions) {
        p->parents.clear();
        p->children.clear();
        for (NodeId n : p->nodes)
            holders[n].push_back(p.get());
    }
    for (const auto& p : partitions) {
        for (NodeId n : p->nodes) {
            for (NodeId user : graph.users(n)) {
                const auto it = holders.find(user);
                if (it == holders.end())
                    continue;
                for (Partition* q : it->second) {
                    if (q != p.get() && !q->nodes.contains(n)) {
                        p->children.insert(q);
                        q->parents.insert(p.get());
                    }
                }
            }
        }
    }
}

void reorganizePartitions(const PartitionList& partitions, const ForwardGraph& graph)
{
    for (std::size_t i = 0; i < partitions.size(); ++i)
        partitions[i]->id = static_cast<int>(i);
    setParentsAndChildren(partitions, graph);
}

void assignBfsLevels(const PartitionList& partitions)
{
    std::set<Partition*> level;
    for (const auto& p : partitions) {
        if (p->parents.empty())
            level.insert(p.get());
    }
    for (int depth = 0; !level.empty(); ++depth) {
        // PyTorch would loop forever on a cycle; a level deeper than the partition count means one.
        if (static_cast<std::size_t>(depth) > partitions.size())
            throw Error("the partitions depend on each other in a cycle");
        std::set<Partition*> next;
        for (Partition* p : level) {
            p->bfsLevel = depth;
            next.insert(p->children.begin(), p->children.end());
        }
        level = std::move(next);
    }
}

void combineTwoPartitions(
    PartitionPtr first, PartitionPtr second, PartitionList& partitions, const SizedGraph& graph)
{
    auto merged = std::make_shared<Partition>(static_cast<int>(partitions.size()));
    merged->nodes = first->nodes;
    merged->nodes.insert(second->nodes.begin(), second->nodes.end());
    merged->recalculateMemSize(graph);
    partitions.push_back(merged);
    std::erase(partitions, first);
    std::erase(partitions, second);
    reorganizePartitions(partitions, graph.graph());
}

bool hasCircularDependency(const Partition& partition)
{
    std::set<const Partition*> visited {&partition};
    std::deque<const Partition*> queue {&partition};
    while (!queue.empty()) {
        const Partition* p = queue.front();
        queue.pop_front();
        for (const Partition* child : p->children) {
            if (child == &partition)
                return true;
            if (visited.insert(child).second)
                queue.push_back(child);
        }
    }
    return false;
}

void resetPartitionDevices(const PartitionList& partitions)
{
    for (const auto& p : partitions)
        p->logicalDeviceIds.clear();
}

std::map<NodeId, int> nodeToPartitionMap(const PartitionList& partitions)
{
    std::map<NodeId, int> map;
    for (const auto& p : partitions) {
        for (NodeId n : p->nodes)
            map[n] = p->id;
    }
    return map;
}

DevicePartitionStats devicePartitionStats(const PartitionList& partitions, const std::vector<Device>& devices)
{
    // Devices are found by logical id; with repeated ids the last device wins, as in PyTorch's dict.
    std::map<int, std::size_t> byLogicalId;
    for (std::size_t d = 0; d < devices.size(); ++d)
        byLogicalId[devices[d].logicalId] = d;
    DevicePartitionStats stats;
    stats.partitionsOn.resize(devices.size());
    for (const Device& device : devices)
        stats.memLeft.push_back(device.availableMemBytes);
    for (const auto& p : partitions) {
        if (p->logicalDeviceIds.empty()) {
            stats.withoutDevice.push_back(p.get());
            continue;
        }
        for (int id : p->logicalDeviceIds) {
            const auto it = byLogicalId.find(id);
            if (it == byLogicalId.end())
                throw Error("partition " + std::to_string(p->id) + " is placed on logical device "
                    + std::to_string(id) + ", which is not among the devices");
            stats.partitionsOn[it->second].push_back(p.get());
            stats.memLeft[it->second] -= p->usedMemBytes;
        }
    }
    return stats;
}

namespace {

/// What putting `partition` on a device that already holds `resident` adds to it.
std::int64_t extraMemNeeded(
    const Partition& partition, const std::vector<Partition*>& resident, const SizedGraph& graph)
{
    NodeSet all;
    for (const Partition* p : resident)
        all.insert(p->nodes.begin(), p->nodes.end());
    if (all.empty())
        return partition.usedMemBytes;
    all.insert(partition.nodes.begin(), partition.nodes.end());
    std::int64_t extra = 0;
    for (NodeId n : partition.nodes)
        extra += graph.extraSizeOf(n, all);
    return extra;
}

} // namespace

bool mapPartitionsToDevices(
    const PartitionList& partitions, const std::vector<Device>& devices, const SizedGraph& graph)
{
    DevicePartitionStats stats = devicePartitionStats(partitions, devices);
    // PyTorch re-sorts its device dict by memory left before each partition; a stable sort of the
    // previous order reproduces how it breaks ties.
    std::vector<std::size_t> order(devices.size());
    std::iota(order.begin(), order.end(), std::size_t {0});
    for (Partition* partition : stats.withoutDevice) {
        std::stable_sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return stats.memLeft[a] < stats.memLeft[b]; });
        bool found = false;
        for (std::size_t d : order) {
            const std::int64_t extra = extraMemNeeded(*partition, stats.partitionsOn[d], graph);
            if (extra < stats.memLeft[d]) {
                stats.partitionsOn[d].push_back(partition);
                partition->logicalDeviceIds.push_back(devices[d].logicalId);
                stats.memLeft[d] -= extra;
                found = true;
                break;
            }
        }
        if (!found)
            return false;
    }
    return true;
}

} // namespace remat::devices
