// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>

namespace remat::ui {

/// The process's peak resident set so far (VmHWM), in bytes; 0 where /proc is not available.
std::int64_t peakResidentBytes();

} // namespace remat::ui
