// SPDX-License-Identifier: MIT
#include "devices/forward_tables.h"

#include "graph/error.h"

#include <simdjson.h>

#include <charconv>

namespace remat::devices {
namespace {

using simdjson::dom::element_type;
using value = simdjson::dom::element;

class TableReader {
public:
    explicit TableReader(std::string fileName)
        : m_file(std::move(fileName))
    { }

    [[noreturn]] void fail(const std::string& where, const std::string& what) const
    {
        throw Error(m_file + ": " + where + ": " + what);
    }

    simdjson::dom::object object(value v, const std::string& where) const
    {
        if (v.type() != element_type::OBJECT)
            fail(where, "expected an object");
        return simdjson::dom::object(v);
    }

    double number(value v, const std::string& where) const
    {
        if (!v.is_number())
            fail(where, "expected a number");
        return v.get_double().value_unsafe();
    }

    std::int64_t integer(value v, const std::string& where) const
    {
        if (v.type() != element_type::INT64)
            fail(where, "expected an integer");
        return v.get_int64().value_unsafe();
    }

    void readModules(value v, ForwardTables& tables) const
    {
        for (const auto field : object(v, "modules")) {
            const std::string path(field.key);
            const std::string where = "modules.\"" + path + "\"";
            ModuleInfo info;
            for (const auto entry : object(field.value, where)) {
                if (entry.key == "type" && entry.value.type() == element_type::STRING)
                    info.type = std::string(entry.value.get_string().value_unsafe());
                else if (entry.key == "repr" && entry.value.type() == element_type::STRING)
                    info.repr = std::string(entry.value.get_string().value_unsafe());
                else if (entry.key == "parameters")
                    info.parameterElements = parameterElements(entry.value, where + ".parameters");
            }
            tables.modules.emplace(path, std::move(info));
        }
    }

    std::int64_t parameterElements(value v, const std::string& where) const
    {
        std::int64_t total = 0;
        for (const auto param : object(v, where)) {
            const std::string at = where + ".\"" + std::string(param.key) + "\"";
            simdjson::dom::element shape;
            if (object(param.value, at)["shape"].get(shape) != simdjson::SUCCESS
                || shape.type() != element_type::ARRAY)
                fail(at, "expected \"shape\": a list of sizes");
            std::int64_t numel = 1;
            for (const value dim : simdjson::dom::array(shape)) {
                const std::int64_t size = integer(dim, at + ".shape");
                if (size < 0)
                    fail(at + ".shape", "negative size " + std::to_string(size));
                numel *= size;
            }
            total += numel;
        }
        return total;
    }

    void readNodeLatency(value v, ForwardTables& tables) const
    {
        for (const auto field : object(v, "node_latency")) {
            const std::string name(field.key);
            const std::string where = "node_latency.\"" + name + "\"";
            NodeLatency latency;
            bool sawMem = false, sawCompute = false;
            for (const auto entry : object(field.value, where)) {
                if (entry.key == "mem_latency_sec") {
                    latency.memLatencySec = number(entry.value, where + ".mem_latency_sec");
                    sawMem = true;
                } else if (entry.key == "computer_latency_sec") {
                    latency.computerLatencySec = number(entry.value, where + ".computer_latency_sec");
                    sawCompute = true;
                }
            }
            if (!sawMem || !sawCompute)
                fail(where, "expected {\"mem_latency_sec\": x, \"computer_latency_sec\": y}");
            tables.nodeLatency.emplace(name, latency);
        }
    }

    void readAotPartition(value v, ForwardTables& tables) const
    {
        for (const auto field : object(v, "aot_partition")) {
            if (field.key == "node_to_partition") {
                for (const auto entry : object(field.value, "aot_partition.node_to_partition")) {
                    const std::string name(entry.key);
                    const auto id = integer(entry.value, "aot_partition.node_to_partition.\"" + name + "\"");
                    tables.nodeToPartition.emplace_back(name, static_cast<int>(id));
                }
            } else if (field.key == "partition_to_logical_devices") {
                readPartitionDevices(field.value, tables);
            }
        }
    }

    void readPartitionDevices(value v, ForwardTables& tables) const
    {
        const std::string where = "aot_partition.partition_to_logical_devices";
        for (const auto entry : object(v, where)) {
            const std::string key(entry.key);
            const std::string at = where + ".\"" + key + "\"";
            int id = 0;
            const auto [end, error] = std::from_chars(key.data(), key.data() + key.size(), id);
            if (error != std::errc() || end != key.data() + key.size())
                fail(at, "a partition id must be an integer");
            if (entry.value.type() != element_type::ARRAY)
                fail(at, "expected a list of logical device ids");
            std::vector<int> ids;
            for (const value device : simdjson::dom::array(entry.value))
                ids.push_back(static_cast<int>(integer(device, at)));
            tables.partitionToLogicalDevices[id] = std::move(ids);
        }
    }

private:
    std::string m_file;
};

} // namespace

ForwardTables parseForwardTables(const std::string& text, const std::string& fileName)
{
    simdjson::dom::parser parser;
    const simdjson::padded_string padded(text);
    const auto parsed = parser.parse(padded);
    if (parsed.error() != simdjson::SUCCESS)
        throw Error(fileName + ": not valid JSON (" + simdjson::error_message(parsed.error()) + ")");
    const value document = parsed.value_unsafe();
    const TableReader reader(fileName);
    ForwardTables tables;
    if (document.type() != element_type::OBJECT)
        return tables;
    for (const auto field : simdjson::dom::object(document)) {
        if (field.key == "modules")
            reader.readModules(field.value, tables);
        else if (field.key == "node_latency")
            reader.readNodeLatency(field.value, tables);
        else if (field.key == "aot_partition")
            reader.readAotPartition(field.value, tables);
    }
    return tables;
}

namespace {

NodeId nodeNamed(const ForwardGraph& graph, const std::string& name, const std::string& where)
{
    const NodeId n = graph.graph().find(name);
    if (n == kNoNode || !graph.contains(n))
        throw Error(where + ": the forward graph has no node \"" + name + "\"");
    return n;
}

} // namespace

NodeLatencyTable resolveNodeLatency(
    const ForwardTables& tables, const ForwardGraph& graph, const std::string& fileName)
{
    NodeLatencyTable table(graph.graph().size());
    for (const auto& [name, latency] : tables.nodeLatency)
        table[static_cast<std::size_t>(nodeNamed(graph, name, fileName + ": node_latency"))] = latency;
    return table;
}

void resolveAotPartition(const ForwardTables& tables, const ForwardGraph& graph, const std::string& fileName,
    PartitionerConfig& config)
{
    config.nodeToPartition.clear();
    for (const auto& [name, id] : tables.nodeToPartition)
        config.nodeToPartition.emplace_back(nodeNamed(graph, name, fileName + ": aot_partition"), id);
    config.partitionToLogicalDevices = tables.partitionToLogicalDevices;
}

} // namespace remat::devices
