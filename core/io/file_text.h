// SPDX-License-Identifier: MIT
#pragma once

#include <string>

namespace remat {

/// The whole file as bytes; throws remat::Error("<path>: cannot read: <reason>").
std::string readFileText(const std::string& path);

/// Writes through a temporary file in the same folder and renames it over `path`, so a crash
/// or a full disk never leaves a half-written file behind. Throws remat::Error on failure.
void writeFileAtomically(const std::string& path, const std::string& contents);

} // namespace remat
