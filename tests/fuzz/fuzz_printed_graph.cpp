// SPDX-License-Identifier: MIT
// libFuzzer target: the printed FX graph reader (print_readable, TORCH_LOGS, tlparse artifacts).
#include "fuzz_support.h"
#include "io/printed_graph_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    return remat::fuzz::readOrReject(
        data, size, [](const std::string& text) { remat::readPrintedGraphText(text, "fuzz.txt"); });
}
