// SPDX-License-Identifier: MIT
// libFuzzer target: the device profile reader (--devices).
#include "budget/device_profile.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    return remat::fuzz::readOrReject(
        data, size, [](const std::string& text) { remat::readDeviceProfilesText(text, "fuzz.json"); });
}
