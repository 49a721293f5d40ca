// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>

namespace remat {

using NodeId = std::int32_t;
constexpr NodeId kNoNode = -1;

/// One value in a node's args/kwargs tree, stored in the graph's flat pool.
/// Lists and dicts keep their children contiguous at `first`; a dict's children alternate key, value.
enum class ArgKind : std::uint8_t { None, Bool, Int, Float, String, Repr, Node, List, Dict };

struct Arg {
    ArgKind kind = ArgKind::None;
    std::uint32_t size = 0; // children of a List, or key/value pairs of a Dict
    union {
        bool boolean;
        std::int64_t integer;
        double real;
        std::uint32_t string; // index into the graph's string table (String, Repr)
        NodeId node;
        std::uint32_t first; // first child (List, Dict)
    };
    Arg()
        : integer(0)
    { }
};

using ArgIndex = std::uint32_t;

} // namespace remat
