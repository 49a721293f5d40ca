// SPDX-License-Identifier: MIT
// libFuzzer target: the joint-graph JSON reader.
#include "fuzz_support.h"
#include "io/joint_graph_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    return remat::fuzz::readOrReject(
        data, size, [](const std::string& text) { remat::readJointGraphText(text, "fuzz.json"); });
}
