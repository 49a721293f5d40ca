// SPDX-License-Identifier: MIT
// `devices`: split a model's forward graph across devices as torch.fx's accelerator partitioner does.
#include "cli/arguments.h"
#include "cli/commands.h"
#include "cli/format.h"
#include "cli/graph_argument.h"
#include "devices/device_split.h"
#include "devices/device_split_json.h"
#include "devices/partition_ops.h"

#include <charconv>
#include <ostream>

namespace remat::cli {
namespace {

using namespace remat::devices;

/// Takes every "--device BYTES" (repeatable, so Arguments cannot hold it) out of `args`.
std::vector<std::int64_t> takeDeviceSizes(std::vector<std::string>& args)
{
    std::vector<std::int64_t> sizes;
    std::vector<std::string> rest;
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string text;
        if (args[i] == "--device") {
            if (i + 1 >= args.size())
                throw UsageError {"--device needs a size in bytes"};
            text = args[++i];
        } else if (args[i].starts_with("--device=")) {
            text = args[i].substr(9);
        } else {
            rest.push_back(args[i]);
            continue;
        }
        std::int64_t bytes = 0;
        const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), bytes);
        if (error != std::errc {} || end != text.data() + text.size() || bytes < 0)
            throw UsageError {
                "--device expects a size in bytes (a non-negative integer), not \"" + text + "\""};
        sizes.push_back(bytes);
    }
    args = std::move(rest);
    return sizes;
}

std::string joinIds(const std::vector<int>& ids)
{
    std::string text;
    for (int id : ids)
        text += (text.empty() ? "" : ",") + std::to_string(id);
    return text.empty() ? "-" : text;
}

std::string nodeList(const Partition& p, const ForwardGraph& graph)
{
    constexpr std::size_t kShown = 6;
    std::string text;
    std::size_t shown = 0;
    for (NodeId n : p.nodes) {
        if (!graph.isOp(n))
            continue;
        if (shown++ == kShown) {
            text += ", ...";
            break;
        }
        text += (text.empty() ? "" : ", ") + graph.name(n);
    }
    return text;
}

void printSummary(const DeviceSplitInput& input, const PartitionerConfig& config, const DeviceSplit& split,
    std::ostream& out)
{
    out << input.fileName() << ": " << input.forward().nodes().size() << " forward nodes, "
        << formatBytes(input.sized().totalSize()) << " in all; " << partitionModeName(config.mode) << " on "
        << config.devices.size() << " device" << (config.devices.size() == 1 ? "" : "s") << "\n\n";
    const DevicePartitionStats stats = devicePartitionStats(split.result.partitions, config.devices);
    out << "devices\n";
    for (std::size_t d = 0; d < config.devices.size(); ++d) {
        const Device& device = config.devices[d];
        const std::int64_t used = device.availableMemBytes - stats.memLeft[d];
        out << "  " << pad(std::to_string(device.logicalId), 4) << pad(formatBytes(used), 12) << "of "
            << pad(formatBytes(device.availableMemBytes), 12) << stats.partitionsOn[d].size() << " partition"
            << (stats.partitionsOn[d].size() == 1 ? "" : "s") << "\n";
    }
    out << "\npartitions (latency in seconds: memory, compute, overall)\n";
    for (std::size_t i = 0; i < split.result.partitions.size(); ++i) {
        const Partition& p = *split.result.partitions[i];
        const PartitionLatency& l = split.latency[i];
        out << "  " << pad(std::to_string(p.id), 4) << "devices " << pad(joinIds(p.logicalDeviceIds), 8)
            << pad(formatBytes(p.usedMemBytes), 12) << l.memLatencySec << ", " << l.computerLatencySec << ", "
            << l.overallLatencySec << "  [" << nodeList(p, input.forward()) << "]\n";
    }
    out << "\ncritical path latency " << split.criticalPathLatencySec << " s";
    if (config.transferRateBytesPerSec <= 0.0)
        out << " (transfer rate 0: communication not counted)";
    out << "\n";
    if (!input.hasNodeLatency())
        out << "note: the graph has no node_latency table, so every node's latency counts as 0\n";
}

} // namespace

int devicesCommand(const std::vector<std::string>& rawArgs, std::ostream& out)
{
    std::vector<std::string> rest = rawArgs;
    const std::vector<std::int64_t> sizes = takeDeviceSizes(rest);
    const Arguments args(rest, {"--mode", "--transfer-rate", kGraphOption}, {"--saturate-host", "--json"});
    if (args.positionals().size() != 1)
        throw UsageError {"expected exactly one GRAPH file"};
    const std::string modeName = args.value("--mode").value_or("size_based");
    const auto mode = parsePartitionMode(modeName);
    if (!mode)
        throw UsageError {"--mode must be size_based, sparse_nn, cost_aware, kl_based or aot_based, not \""
            + modeName + "\""};
    const double rate = args.number("--transfer-rate", 0.0);
    if (!(rate >= 0.0))
        throw UsageError {"--transfer-rate must be a non-negative number of bytes per second"};

    const DeviceSplitInput input(args.positionals()[0], args.value(kGraphOption).value_or(std::string()));
    const PartitionerConfig config
        = input.config(devicesFromSizes(sizes), *mode, rate, args.flag("--saturate-host"));
    const DeviceSplit split = splitAcrossDevices(input, config);
    if (args.flag("--json"))
        out << deviceSplitJson(input.forward(), split);
    else
        printSummary(input, config, split, out);
    return 0;
}

} // namespace remat::cli
