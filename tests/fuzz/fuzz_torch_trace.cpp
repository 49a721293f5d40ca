// SPDX-License-Identifier: MIT
// libFuzzer target: the TORCH_TRACE log reader, then listing and loading every graph it lists
// (the path `info` and `--graph` take).
#include "fuzz_support.h"
#include "io/torch_trace.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    return remat::fuzz::readOrReject(data, size, [](const std::string& text) {
        const std::vector<remat::trace::TraceLogFile> logs {remat::trace::readTraceLog(text, "fuzz.log")};
        const remat::trace::TraceListing listing = remat::trace::listTraceLogs(logs, "fuzz.log");
        for (const remat::trace::TracedGraphSummary& graph : listing.graphs) {
            try {
                remat::trace::loadTracedGraph(logs, "fuzz.log", graph.id);
            } catch (const remat::Error&) { }
        }
    });
}
