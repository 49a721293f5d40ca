// SPDX-License-Identifier: MIT
#include "cli/format.h"

#include "budget/runtime_text.h"
#include "partition/rng_states.h"

#include <cmath>
#include <cstdio>

namespace remat::cli {

std::string formatBytes(std::int64_t bytes)
{
    static constexpr const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double value = static_cast<double>(bytes);
    int unit = 0;
    while (std::fabs(value) >= 1024.0 && unit < 4) {
        value /= 1024.0;
        ++unit;
    }
    char text[32];
    if (unit == 0)
        std::snprintf(text, sizeof text, "%lld B", static_cast<long long>(bytes));
    else
        std::snprintf(text, sizeof text, "%.1f %s", value, kUnits[unit]);
    return text;
}

std::string formatSeconds(double seconds)
{
    char text[32];
    if (seconds >= 1.0)
        std::snprintf(text, sizeof text, "%.2f s", seconds);
    else if (seconds >= 1e-3)
        std::snprintf(text, sizeof text, "%.1f ms", seconds * 1e3);
    else
        std::snprintf(text, sizeof text, "%.0f us", seconds * 1e6);
    return text;
}

std::string formatRuntime(double value, std::string_view unit)
{
    return runtimeText(value, unit);
}

std::string formatBytesDelta(std::int64_t delta)
{
    if (delta == 0)
        return "±0 B";
    return (delta > 0 ? "+" : "") + formatBytes(delta);
}

std::string formatRuntimeDelta(double delta, std::string_view unit)
{
    if (delta == 0)
        return "±0";
    return (delta > 0 ? "+" : "") + formatRuntime(delta, unit);
}

std::string savedSymIntsText(std::size_t count)
{
    if (count == 0)
        return {};
    return "; " + std::to_string(count) + (count == 1 ? " SymInt" : " SymInts");
}

std::string rngStatesLine(const JointGraph& graph, const std::vector<NodeId>& ops, std::size_t labelWidth)
{
    if (ops.empty())
        return {};
    std::string names;
    for (std::size_t i = 0; i < ops.size() && i < 3; ++i)
        names += (i ? ", " : "") + graph.node(ops[i]).name;
    if (ops.size() > 3)
        names += ", …";
    return pad("RNG states", labelWidth) + std::to_string(ops.size()) + ", "
        + formatBytes(static_cast<std::int64_t>(ops.size()) * kCpuRngStateBytes)
        + ": the backward recomputes the random ops " + names
        + " and replays each with the RNG state the forward saved\n";
}

std::string pad(const std::string& text, std::size_t width)
{
    return text.size() >= width ? text : text + std::string(width - text.size(), ' ');
}

std::string peakNodeName(const JointGraph& graph, NodeId node)
{
    return node == kNoNode ? std::string("no node") : graph.node(node).name;
}

} // namespace remat::cli
