// SPDX-License-Identifier: MIT
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace remat {

/// "12:40: malformed JSON: Missing a comma..." for the first syntax error in `text`, or nullopt
/// when it is well-formed JSON. Slow path: only used to explain a failed fast parse.
std::optional<std::string> findJsonSyntaxError(std::string_view text);

} // namespace remat
