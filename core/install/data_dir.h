// SPDX-License-Identifier: MIT
#pragma once

#include <filesystem>

namespace remat {

/// The folder of the files the program reads at run time (device_profiles.json, samples/, the
/// Python bridge in python/), found from where the running executable is, never from where it was
/// built: $REMAT_DATA_DIR, else share/remat-explorer beside the executable's prefix (bin/ or
/// lib/remat-explorer/ under it). The build tree has the same layout (build/share/remat-explorer
/// links to the source files), so a build runs like an install. Empty when there is none.
std::filesystem::path dataDir();

/// dataDir() / `name`, or just `name` (looked up in the working folder) when there is no data dir.
std::filesystem::path dataFile(const std::filesystem::path& name);

} // namespace remat
