// SPDX-License-Identifier: MIT
#include "io/text_encoding.h"

#include "io/json_location.h"

#include <cstdint>
#include <cstdio>

namespace remat {
namespace {

/// Length of the well-formed UTF-8 sequence starting at `i`, or 0 (RFC 3629: no overlongs, no
/// surrogates, nothing above U+10FFFF).
std::size_t sequenceLength(std::string_view text, std::size_t i)
{
    const auto byte = [&](std::size_t k) { return static_cast<std::uint8_t>(text[k]); };
    const std::uint8_t lead = byte(i);
    std::size_t length = 0;
    std::uint8_t low = 0x80, high = 0xBF; // the allowed range of the second byte
    if (lead < 0x80)
        return lead == 0 ? 0 : 1;
    if (lead >= 0xC2 && lead <= 0xDF)
        length = 2;
    else if (lead >= 0xE0 && lead <= 0xEF) {
        length = 3;
        if (lead == 0xE0)
            low = 0xA0;
        if (lead == 0xED)
            high = 0x9F;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
        length = 4;
        if (lead == 0xF0)
            low = 0x90;
        if (lead == 0xF4)
            high = 0x8F;
    } else {
        return 0;
    }
    if (i + length > text.size() || byte(i + 1) < low || byte(i + 1) > high)
        return 0;
    for (std::size_t k = 2; k < length; ++k) {
        if (byte(i + k) < 0x80 || byte(i + k) > 0xBF)
            return 0;
    }
    return length;
}

} // namespace

std::optional<std::string> findEncodingError(std::string_view text)
{
    for (std::size_t i = 0; i < text.size();) {
        const std::size_t length = sequenceLength(text, i);
        if (length > 0) {
            i += length;
            continue;
        }
        const auto where = locateOffset(text, i);
        char byte[8];
        std::snprintf(byte, sizeof byte, "0x%02X", static_cast<unsigned>(static_cast<std::uint8_t>(text[i])));
        return std::to_string(where.line) + ":" + std::to_string(where.column) + ": byte " + byte
            + (text[i] == 0 ? " (NUL): this is binary data, not text" : " is not UTF-8 text");
    }
    return std::nullopt;
}

} // namespace remat
