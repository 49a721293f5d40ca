// SPDX-License-Identifier: MIT
#pragma once

#include "graph/node.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace remat {

/// Node ids by name, for nodes that keep their own names: an open-addressing table of ids and
/// hashes, so that no name is copied and a lookup touches one slot and one node (a map of strings
/// cost a graph of 8k nodes 8k allocations and a cache miss or three per lookup).
class NameIndex {
public:
    void reserve(std::size_t count);
    /// The id of the node called `name`, or kNoNode.
    NodeId find(std::string_view name, const std::vector<Node>& nodes) const;
    /// Indexes nodes[id] under its name; false (and nothing added) if the name is taken.
    bool insert(NodeId id, const std::vector<Node>& nodes);

private:
    struct Slot {
        std::uint32_t hash = 0;
        NodeId id = kNoNode;
    };
    static std::uint32_t hashOf(std::string_view name);
    /// The slot holding `name`, or the empty slot where it would go.
    std::size_t slotOf(std::string_view name, std::uint32_t hash, const std::vector<Node>& nodes) const;
    void grow(std::size_t slots);

    std::vector<Slot> m_slots; // a power of two, at most half full
    std::size_t m_size = 0;
};

} // namespace remat
