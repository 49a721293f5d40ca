// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace remat {

/// Input files above this size (512 MiB) are refused before reading: parsing one would need
/// several times its size in memory. Real joint graphs of 100 000 nodes take about 120 MB.
inline constexpr std::uintmax_t kMaxInputFileBytes = std::uintmax_t {512} << 20;

/// Throws remat::Error("<path>: cannot read: ...") when `path` is a folder or larger than
/// kMaxInputFileBytes; a missing file is left to the reader, which says so.
void checkInputFileSize(const std::string& path);

/// Spare capacity readFileText leaves after the text: SIMD JSON parsers read up to 64 bytes past
/// the end, and with this room they parse the text where it is instead of copying it.
inline constexpr std::size_t kReadPadding = 64;

/// The whole file as bytes (with kReadPadding spare capacity); throws
/// remat::Error("<path>: cannot read: <reason>").
std::string readFileText(const std::string& path);

/// Writes through a temporary file in the same folder and renames it over `path`, so a crash
/// or a full disk never leaves a half-written file behind. Throws remat::Error on failure.
void writeFileAtomically(const std::string& path, const std::string& contents);

} // namespace remat
