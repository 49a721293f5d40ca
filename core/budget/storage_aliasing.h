// SPDX-License-Identifier: MIT
#pragma once

#include "partition/work_graph.h"

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace remat {

/// Which tensors share an allocation. Our format has no storage ids, so they are derived from view
/// semantics: a view (view, t, transpose, expand, slice, detach, ...), the getitems of a split, and
/// an in-place op's result share their base's storage; every other tensor gets its own.
/// Built on the graph as a partitioner sees it (after DCE and CSE).
class StorageMap {
public:
    using StorageId = std::int32_t;

    explicit StorageMap(const WorkGraph& graph);

    /// PyTorch's get_node_storage: the storage of a single-tensor node, nullopt for anything else
    /// (tuples, no value).
    std::optional<StorageId> storageOf(NodeId n) const;
    static constexpr StorageId kNone = -1;
    /// Every storage a node's value refers to: one for a tensor, one per element of a tuple
    /// (kNone for an element that is not a tensor).
    std::span<const StorageId> storagesOf(NodeId n) const
    {
        const auto i = static_cast<std::size_t>(n);
        return {m_items.data() + m_offsets[i], m_offsets[i + 1] - m_offsets[i]};
    }

    std::size_t storageCount() const { return m_owner.size(); }
    /// The node whose execution allocates the storage (a placeholder for inputs).
    NodeId owner(StorageId s) const { return m_owner[static_cast<std::size_t>(s)]; }
    std::int64_t bytes(StorageId s) const { return m_bytes[static_cast<std::size_t>(s)]; }
    /// Allocated by a graph input (a primal, a tangent, a constant): memory the plan does not pay for.
    bool isInputStorage(StorageId s) const { return m_isInput[static_cast<std::size_t>(s)] != 0; }

    /// Storages that `n` allocates when it runs (empty for views and in-place ops).
    std::span<const StorageId> allocatedBy(NodeId n) const
    {
        const auto i = static_cast<std::size_t>(n);
        return {
            m_allocated.data() + m_allocatedOffsets[i], m_allocatedOffsets[i + 1] - m_allocatedOffsets[i]};
    }

    /// The alias rule for one op, for tests and explanations: does its result share args[0]'s storage?
    static bool isViewPacket(std::string_view packet);
    static bool isSplitPacket(std::string_view packet);

private:
    const WorkGraph* m_graph;
    std::vector<std::uint32_t> m_offsets {0};
    std::vector<StorageId> m_items;
    std::vector<std::uint32_t> m_allocatedOffsets {0};
    std::vector<StorageId> m_allocated; ///< storages in the order their owners allocate them
    std::vector<NodeId> m_owner;
    std::vector<std::int64_t> m_bytes;
    std::vector<char> m_isInput;
};

/// Bytes an allocator keeps alive for a set of values: each distinct storage counted once, and
/// storages of graph inputs (a primal, or a view of one such as the transpose of a weight) as zero.
std::int64_t distinctStorageBytes(const StorageMap& storages, std::span<const NodeId> values);

} // namespace remat
