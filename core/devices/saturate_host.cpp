// SPDX-License-Identifier: MIT
// saturate_host: copy the partitions of every used device onto idle devices (the smallest idle
// device with room for what the used device holds), as long as a whole round of copies fits.
#include "devices/accelerator_partitioner.h"
#include "devices/partition_ops.h"
#include "graph/error.h"

#include <algorithm>

namespace remat::devices {

void AcceleratorPartitioner::saturateHost()
{
    const auto& devices = m_config.devices;
    const DevicePartitionStats stats = devicePartitionStats(m_partitions, devices);
    if (!stats.withoutDevice.empty())
        throw Error("Expect no_device_partitions has 0 device, but get "
            + std::to_string(stats.withoutDevice.size()));
    std::vector<std::size_t> used;
    for (std::size_t d = 0; d < devices.size(); ++d) {
        if (!stats.partitionsOn[d].empty())
            used.push_back(d);
    }
    // replica device -> the used device it copies, in the order they were found
    std::vector<std::pair<std::size_t, std::size_t>> replicas;
    auto isTaken = [&](std::size_t d) {
        return std::find(used.begin(), used.end(), d) != used.end()
            || std::any_of(replicas.begin(), replicas.end(), [&](const auto& r) { return r.first == d; });
    };
    while (used.size() * 2 + replicas.size() <= devices.size()) {
        std::vector<std::size_t> idle;
        for (std::size_t d = 0; d < devices.size(); ++d) {
            if (!isTaken(d))
                idle.push_back(d);
        }
        std::vector<std::pair<std::size_t, std::size_t>> round;
        bool success = true;
        for (std::size_t original : used) {
            const std::int64_t held = devices[original].availableMemBytes - stats.memLeft[original];
            std::optional<std::size_t> smallest;
            for (std::size_t d : idle) {
                if (devices[d].availableMemBytes >= held
                    && (!smallest || devices[d].availableMemBytes < devices[*smallest].availableMemBytes))
                    smallest = d;
            }
            if (!smallest) {
                success = false;
                break;
            }
            std::erase(idle, *smallest);
            round.emplace_back(*smallest, original);
        }
        if (!success)
            break;
        replicas.insert(replicas.end(), round.begin(), round.end());
    }
    for (const auto& [replica, original] : replicas) {
        for (Partition* p : stats.partitionsOn[original])
            p->logicalDeviceIds.push_back(devices[replica].logicalId);
    }
}

} // namespace remat::devices
