// SPDX-License-Identifier: MIT
// libFuzzer target: the printed FX graph reader (print_readable, TORCH_LOGS, tlparse artifacts),
// and a TORCH_LOGS capture's compilations opened one by one by compile id, with PyTorch's
// decision read from their forward and backward graphs, as --graph and the app's chooser open them.
#include "fuzz_support.h"
#include "io/printed_graph_reader.h"
#include "io/torch_logs_capture.h"
#include "io/torch_trace.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    remat::fuzz::readOrReject(
        data, size, [](const std::string& text) { remat::readPrintedGraphText(text, "fuzz.txt"); });
    return remat::fuzz::readOrReject(data, size, [](const std::string& text) {
        const auto capture = remat::trace::readTorchLogsCapture(text, "fuzz.txt");
        if (!capture)
            return;
        for (const auto& compile : capture->compiles) {
            try {
                remat::trace::loadTracedGraph({*capture}, "fuzz.txt", compile.id);
            } catch (const remat::Error&) { }
        }
    });
}
