// SPDX-License-Identifier: MIT
#pragma once

#include <filesystem>

namespace remat::cli {

/// The shared folder (docs, oracle): $REMAT_SHARED_DIR, else ../shared or shared under the working
/// directory (never a path from the build: an installed binary has no source tree).
std::filesystem::path sharedDir();

} // namespace remat::cli
