// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

namespace remat::cli {

/// The value of REMAT_NO_HUGE_PAGES when this program set it itself, restarting with glibc's
/// huge-page tunable (which it sets only when GLIBC_TUNABLES was unset).
inline constexpr const char* kHugePageRestartMarker = "restarted";

/// `environment` (a null-terminated list, like `environ`) as the user had it: without the
/// variables a huge-page restart added. A benchmark of whole processes starts its children with
/// this, so that it times them as the user would run them (the tunable slows a single-threaded
/// command down by about 20%).
std::vector<std::string> environmentBeforeRestart(char** environment);

} // namespace remat::cli
