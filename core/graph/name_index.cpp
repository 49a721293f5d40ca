// SPDX-License-Identifier: MIT
#include "graph/name_index.h"

#include "graph/string_hash.h"

#include <algorithm>
#include <bit>

namespace remat {

std::uint32_t NameIndex::hashOf(std::string_view name)
{
    return static_cast<std::uint32_t>(hashText(name));
}

void NameIndex::reserve(std::size_t count)
{
    if (2 * count > m_slots.size())
        grow(std::bit_ceil(2 * count));
}

std::size_t NameIndex::slotOf(std::string_view name, std::uint32_t hash, const std::vector<Node>& nodes) const
{
    const std::size_t mask = m_slots.size() - 1;
    for (std::size_t i = hash & mask;; i = (i + 1) & mask) {
        const Slot& slot = m_slots[i];
        if (slot.id == kNoNode
            || (slot.hash == hash && nodes[static_cast<std::size_t>(slot.id)].name == name))
            return i;
    }
}

NodeId NameIndex::find(std::string_view name, const std::vector<Node>& nodes) const
{
    if (m_slots.empty())
        return kNoNode;
    return m_slots[slotOf(name, hashOf(name), nodes)].id;
}

bool NameIndex::insert(NodeId id, const std::vector<Node>& nodes)
{
    if (2 * (m_size + 1) > m_slots.size())
        grow(std::max<std::size_t>(16, 2 * m_slots.size()));
    const std::string_view name = nodes[static_cast<std::size_t>(id)].name;
    const std::uint32_t hash = hashOf(name);
    Slot& slot = m_slots[slotOf(name, hash, nodes)];
    if (slot.id != kNoNode)
        return false;
    slot = {hash, id};
    ++m_size;
    return true;
}

void NameIndex::grow(std::size_t slots)
{
    std::vector<Slot> old(slots);
    old.swap(m_slots);
    const std::size_t mask = m_slots.size() - 1;
    for (const Slot& s : old) {
        if (s.id == kNoNode)
            continue;
        std::size_t i = s.hash & mask;
        while (m_slots[i].id != kNoNode)
            i = (i + 1) & mask;
        m_slots[i] = s;
    }
}

} // namespace remat
