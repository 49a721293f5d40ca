// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace remat {

/// A hash for the short strings of a graph (node names, op targets, most under 32 bytes): eight
/// bytes at a time, mixed by multiplication, and inline. std::hash's out-of-line murmur took 2% of
/// `partition` on gpt_n48. Not for untrusted keys meant to collide: files are the user's own.
inline std::uint64_t hashText(std::string_view text) noexcept
{
    constexpr std::uint64_t kOdd = 0x9e3779b97f4a7c15ULL;
    const char* at = text.data();
    std::size_t left = text.size();
    std::uint64_t h = left * kOdd;
    const auto mix = [&h](std::uint64_t word) {
        h = (h ^ word) * kOdd;
        h ^= h >> 32;
    };
    for (; left > 8; at += 8, left -= 8) {
        std::uint64_t word = 0;
        std::memcpy(&word, at, 8);
        mix(word);
    }
    // The last one to eight bytes, read as two overlapping halves (or three single bytes).
    std::uint64_t tail = 0;
    if (left >= 4) {
        std::uint32_t low = 0;
        std::uint32_t high = 0;
        std::memcpy(&low, at, 4);
        std::memcpy(&high, at + left - 4, 4);
        tail = low | (std::uint64_t {high} << 32);
    } else if (left > 0) {
        tail = static_cast<unsigned char>(at[0])
            | (static_cast<unsigned>(static_cast<unsigned char>(at[left / 2])) << 8)
            | (static_cast<unsigned>(static_cast<unsigned char>(at[left - 1])) << 16);
    }
    mix(tail);
    // splitmix64's finish, so that the low bits a table masks depend on every byte.
    h ^= h >> 30;
    h *= 0xbf58476d1ce4e5b9ULL;
    h ^= h >> 27;
    h *= 0x94d049bb133111ebULL;
    return h ^ (h >> 31);
}

/// Lets unordered maps keyed by std::string be searched with a string_view without a copy.
struct StringHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view text) const noexcept { return hashText(text); }
};

template <typename Value>
using StringMap = std::unordered_map<std::string, Value, StringHash, std::equal_to<>>;

} // namespace remat
