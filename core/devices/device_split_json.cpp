// SPDX-License-Identifier: MIT
#include "devices/device_split_json.h"

#include "graph/error.h"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cmath>

namespace remat::devices {
namespace {

using Writer = rapidjson::Writer<rapidjson::StringBuffer>;

void writeSeconds(Writer& w, const char* key, double seconds)
{
    if (!std::isfinite(seconds))
        throw Error(std::string("the ") + key + " is not a finite number; check the graph's node_latency");
    w.Key(key);
    w.Double(seconds);
}

void writeString(Writer& w, const std::string& text)
{
    w.String(text.data(), static_cast<rapidjson::SizeType>(text.size()));
}

} // namespace

std::string deviceSplitJson(const ForwardGraph& graph, const DeviceSplit& split)
{
    rapidjson::StringBuffer buffer;
    Writer w(buffer);
    w.StartObject();
    w.Key("partitions");
    w.StartArray();
    for (std::size_t i = 0; i < split.result.partitions.size(); ++i) {
        const Partition& p = *split.result.partitions[i];
        w.StartObject();
        w.Key("id");
        w.Int(p.id);
        w.Key("nodes");
        w.StartArray();
        for (NodeId n : p.nodes)
            writeString(w, graph.name(n));
        w.EndArray();
        w.Key("logical_device_ids");
        w.StartArray();
        for (int id : p.logicalDeviceIds)
            w.Int(id);
        w.EndArray();
        w.Key("used_mem_bytes");
        w.Int64(p.usedMemBytes);
        const PartitionLatency& latency = split.latency[i];
        w.Key("latency");
        w.StartObject();
        writeSeconds(w, "mem_latency_sec", latency.memLatencySec);
        writeSeconds(w, "computer_latency_sec", latency.computerLatencySec);
        writeSeconds(w, "overall_latency_sec", latency.overallLatencySec);
        w.EndObject();
        w.EndObject();
    }
    w.EndArray();
    writeSeconds(w, "critical_path_latency_sec", split.criticalPathLatencySec);
    w.EndObject();
    return std::string(buffer.GetString(), buffer.GetSize()) + "\n";
}

} // namespace remat::devices
