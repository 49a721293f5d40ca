// SPDX-License-Identifier: MIT
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace remat {

/// Deepest nesting of arrays and objects any of our JSON readers accepts; deeper documents would
/// exhaust the stack of a recursive parser or of a DOM's destructor.
inline constexpr int kMaxJsonDepth = 512;

/// "12:40: malformed JSON: Missing a comma..." for the first syntax error in `text` (invalid
/// UTF-8 and nesting deeper than kMaxJsonDepth included), or nullopt when it is well-formed JSON.
/// Never recurses, so any input is safe to check.
std::optional<std::string> findJsonSyntaxError(std::string_view text);

} // namespace remat
