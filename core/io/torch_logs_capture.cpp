// SPDX-License-Identifier: MIT
#include "io/torch_logs_capture.h"

#include "io/printed_source.h"

#include <algorithm>

namespace remat::trace {
namespace {

TracedCompile& compileNamed(TraceLogFile& log, const std::string& id)
{
    auto found = std::find_if(
        log.compiles.begin(), log.compiles.end(), [&](const TracedCompile& c) { return c.id == id; });
    if (found != log.compiles.end())
        return *found;
    log.compiles.push_back({});
    log.compiles.back().id = id;
    return log.compiles.back();
}

/// The symbols ("s62", "u3") named inside the quoted annotations of a graph's lines.
std::vector<std::string> annotatedSymbols(const std::vector<printed::SourceLine>& lines)
{
    std::vector<std::string> symbols;
    const auto isWordChar = [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    };
    for (const auto& line : lines) {
        const std::string& t = line.text;
        bool quoted = false;
        for (std::size_t i = 0; i < t.size(); ++i) {
            if (t[i] == '"')
                quoted = !quoted;
            if (!quoted || (t[i] != 's' && t[i] != 'u') || (i > 0 && isWordChar(t[i - 1])))
                continue;
            std::size_t end = i + 1;
            while (end < t.size() && t[end] >= '0' && t[end] <= '9')
                ++end;
            if (end > i + 1 && (end == t.size() || !isWordChar(t[end])))
                symbols.push_back(t.substr(i, end - i));
        }
    }
    return symbols;
}

} // namespace

std::optional<TraceLogFile> readTorchLogsCapture(const std::string& text, const std::string& fileName)
{
    const std::vector<printed::SourceLine> lines = printed::logLines(text);
    TraceLogFile log;
    log.path = fileName;
    log.format = kTorchLogsCapture;
    for (auto& graph : printed::loggedGraphs(lines)) {
        if (graph.compileId.empty())
            continue;
        std::optional<TraceArtifact>* slot = nullptr;
        TracedCompile& compile = compileNamed(log, graph.compileId);
        if (graph.title.starts_with("Joint graph"))
            slot = &compile.joint;
        else if (graph.title.starts_with("Forward graph"))
            slot = &compile.forward;
        else if (graph.title.starts_with("Backward graph"))
            slot = &compile.backward;
        if (slot) // a later record of the same kind replaces an earlier one, as in a TORCH_TRACE log
            *slot = TraceArtifact {graph.lines.front().number, std::move(graph.lines)};
    }
    if (log.compiles.empty())
        return std::nullopt;
    // aot_graphs logs "aot_config id: 0, fw_metadata=ViewAndMutationMeta(...)" on one line per compile.
    constexpr std::string_view metadata = "fw_metadata=ViewAndMutationMeta(";
    for (const auto& line : lines) {
        const auto at = line.text.find(metadata);
        if (at == std::string::npos)
            continue;
        const std::string id = printed::compileIdIn(std::string_view(line.text).substr(0, at));
        if (!id.empty())
            compileNamed(log, id).forwardMetadata
                = TraceArtifact {line.number, {{line.number, line.text.substr(at)}}};
    }
    std::erase_if(log.compiles, [](const TracedCompile& c) { return !c.joint && !c.forward && !c.backward; });
    // A capture of aot_graphs alone has no joint graph: the printed reader says where it is printed.
    if (std::none_of(
            log.compiles.begin(), log.compiles.end(), [](const TracedCompile& c) { return c.joint; }))
        return std::nullopt;
    for (auto& compile : log.compiles) {
        if (!compile.forwardMetadata) {
            compile.forward.reset();
            compile.backward.reset();
        }
        // The forward graph is read for PyTorch's decision only (its nodes' names, ops and outputs),
        // never sized, and a capture logs no symbol's example value: a size only it names (the RNG
        // state "u8[s62]" that run_and_save_rng_state returns) stands at 1 so that it reads. The
        // joint graph gets no such values: a dynamic-shape one is refused, naming TORCH_TRACE.
        if (compile.forward)
            for (const auto& symbol : annotatedSymbols(compile.forward->payload))
                compile.symbolHints.emplace(symbol, 1);
    }
    return log;
}

} // namespace remat::trace
