// SPDX-License-Identifier: MIT
#include "io/json_location.h"

#include <algorithm>

namespace remat {

TextLocation locateOffset(std::string_view text, std::size_t offset)
{
    offset = std::min(offset, text.size());
    TextLocation where;
    std::size_t lineStart = 0;
    for (std::size_t i = 0; i < offset; ++i) {
        if (text[i] == '\n') {
            ++where.line;
            lineStart = i + 1;
        }
    }
    where.column = offset - lineStart + 1;
    return where;
}

} // namespace remat
