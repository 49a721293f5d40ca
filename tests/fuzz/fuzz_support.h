// SPDX-License-Identifier: MIT
// Shared by the libFuzzer targets: a reader either accepts the input or throws remat::Error;
// anything else (a crash, a sanitizer report, another exception) is a finding.
#pragma once

#include "graph/error.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace remat::fuzz {

template <typename Read> int readOrReject(const std::uint8_t* data, std::size_t size, Read read)
{
    try {
        read(std::string(reinterpret_cast<const char*>(data), size));
    } catch (const Error&) { }
    return 0;
}

} // namespace remat::fuzz
