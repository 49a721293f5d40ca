// SPDX-License-Identifier: MIT
// libFuzzer target: the plan file reader (memory --plan).
#include "fuzz_support.h"
#include "io/plan_json.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    return remat::fuzz::readOrReject(
        data, size, [](const std::string& text) { remat::readPlanText(text, "fuzz.json"); });
}
