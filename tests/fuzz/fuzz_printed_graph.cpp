// SPDX-License-Identifier: MIT
// libFuzzer target: the printed FX graph reader (print_readable, TORCH_LOGS, tlparse artifacts),
// and a TORCH_LOGS capture's graphs read one by one by compile id, as `info`, --graph and the
// app's chooser read them.
#include "fuzz_support.h"
#include "io/compiled_graph_listing.h"
#include "io/printed_graph_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    remat::fuzz::readOrReject(
        data, size, [](const std::string& text) { remat::readPrintedGraphText(text, "fuzz.txt"); });
    return remat::fuzz::readOrReject(
        data, size, [](const std::string& text) { remat::listTorchLogsCapture(text, "fuzz.txt"); });
}
