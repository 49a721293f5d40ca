// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <string_view>

namespace remat {

struct TextLocation {
    std::size_t line = 1; // 1-based
    std::size_t column = 1; // 1-based, in bytes
};

/// Line and column of a byte offset, for error messages.
TextLocation locateOffset(std::string_view text, std::size_t offset);

} // namespace remat
