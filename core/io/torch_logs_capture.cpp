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
    for (auto& compile : log.compiles) {
        if (!compile.forwardMetadata) {
            compile.forward.reset();
            compile.backward.reset();
        }
    }
    return log;
}

} // namespace remat::trace
