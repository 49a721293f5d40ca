// SPDX-License-Identifier: MIT
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace remat {

/// "4:2: byte 0xFF is not UTF-8 text" for the first NUL byte or invalid UTF-8 sequence in `text`
/// (line:column, 1-based), or nullopt when it is clean UTF-8 text. Graphs, plans and profiles
/// are text; a message quoting binary bytes would itself be unreadable.
std::optional<std::string> findEncodingError(std::string_view text);

} // namespace remat
