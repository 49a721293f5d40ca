// SPDX-License-Identifier: MIT
#include "io/compiled_graph_listing.h"

#include "io/file_text.h"
#include "io/graph_loader.h"
#include "io/torch_logs_capture.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>

namespace remat {

std::optional<trace::TraceListing> listCompiledGraphsInText(const std::string& text, const std::string& path)
{
    if (trace::looksLikeTorchTrace(text))
        return trace::listTraceLogs({trace::readTraceLog(text, path)}, path);
    if (looksLikeJson(text))
        return std::nullopt;
    const auto log = trace::readTorchLogsCapture(text, path);
    if (!log)
        return std::nullopt;
    trace::TraceListing capture = trace::listTraceLogs({*log}, path);
    const auto joints = std::count_if(capture.graphs.begin(), capture.graphs.end(),
        [](const trace::TracedGraphSummary& g) { return g.joint; });
    if (joints < 2)
        return std::nullopt;
    return capture;
}

std::optional<trace::TraceListing> listCompiledGraphs(const std::string& path)
{
    if (trace::isTorchTracePath(path))
        return trace::listTorchTrace(path);
    // Anything else but a readable printed capture opens, or fails, as the loader says.
    std::error_code error;
    if (!std::filesystem::is_regular_file(path, error))
        return std::nullopt;
    std::string head(512, '\0');
    if (std::FILE* file = std::fopen(path.c_str(), "rb")) {
        head.resize(std::fread(head.data(), 1, head.size(), file));
        std::fclose(file);
    }
    if (head.empty() || looksLikeJson(head)) // a 28 MB joint graph is not read twice
        return std::nullopt;
    return listCompiledGraphsInText(readFileText(path), path);
}

} // namespace remat
