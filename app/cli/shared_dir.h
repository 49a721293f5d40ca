// SPDX-License-Identifier: MIT
#pragma once

#include <filesystem>

namespace remat::cli {

/// The shared folder (docs, oracle): $REMAT_SHARED_DIR, else ../shared beside the working
/// directory, else the one beside the source tree this binary was built from.
std::filesystem::path sharedDir();

} // namespace remat::cli
