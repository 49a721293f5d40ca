// SPDX-License-Identifier: MIT
#include "budget/storage_aliasing.h"

#include <algorithm>
#include <array>
#include <string_view>

namespace remat {
namespace {

// Overload packets whose result is a view of args[0] (PyTorch's view semantics, aten and prims).
constexpr std::array<std::string_view, 48> kViewPackets {
    "aten.view",
    "aten._reshape_alias",
    "aten._unsafe_view",
    "aten.t",
    "aten.transpose",
    "aten.permute",
    "aten.expand",
    "aten.expand_as",
    "aten.slice",
    "aten.select",
    "aten.squeeze",
    "aten.unsqueeze",
    "aten.alias",
    "aten.detach",
    "aten.as_strided",
    "aten.diagonal",
    "aten.narrow",
    "aten.unfold",
    "aten.view_as_real",
    "aten.view_as_complex",
    "aten.view_as",
    "aten.unflatten",
    "aten.movedim",
    "aten.moveaxis",
    "aten.swapaxes",
    "aten.swapdims",
    "aten.numpy_T",
    "aten.mT",
    "aten.mH",
    "aten.adjoint",
    "aten.real",
    "aten.imag",
    "aten._conj",
    "aten._neg_view",
    "aten.lift_fresh",
    "aten.indices",
    "aten.values",
    "aten.matrix_H",
    "aten.T",
    "aten.H",
    "aten.ccol_indices",
    "aten.crow_indices",
    "prims.view_of",
    "prims.broadcast_in_dim",
    "prims.squeeze",
    "prims.transpose",
    "prims.collapse_view",
    "prims.split_dim",
};

// Multi-output ops whose elements are all views of args[0].
constexpr std::array<std::string_view, 11> kSplitPackets {
    "aten.split",
    "aten.split_with_sizes",
    "aten.unbind",
    "aten.chunk",
    "aten.tensor_split",
    "aten.unsafe_split",
    "aten.unsafe_split_with_sizes",
    "aten.unsafe_chunk",
    "aten.hsplit",
    "aten.vsplit",
    "aten.dsplit",
};

bool contains(std::span<const std::string_view> list, std::string_view packet)
{
    return std::find(list.begin(), list.end(), packet) != list.end();
}

bool isContiguous(const TensorMeta& t)
{
    std::int64_t expected = 1;
    for (std::size_t i = t.shape.size(); i-- > 0;) {
        if (t.shape[i] != 1 && (i >= t.stride.size() || t.stride[i] != expected))
            return false;
        expected *= t.shape[i];
    }
    return true;
}

bool sameLayout(const TensorMeta& a, const TensorMeta& b)
{
    return a.dtype == b.dtype && a.shape == b.shape && a.stride == b.stride && a.device == b.device;
}

} // namespace

bool StorageMap::isViewPacket(std::string_view packet)
{
    return contains(kViewPackets, packet);
}

bool StorageMap::isSplitPacket(std::string_view packet)
{
    return contains(kSplitPackets, packet);
}

StorageMap::StorageMap(const WorkGraph& graph)
    : m_graph(&graph)
{
    const JointGraph& joint = graph.graph();
    // Per node: the storages of its elements, filled in graph order (inputs come first).
    std::vector<std::vector<StorageId>> perNode(joint.size());
    const auto allocate = [&](NodeId owner, const Node& node) {
        std::vector<StorageId> out;
        for (const auto& value : node.values) {
            if (!value) {
                out.push_back(kNone);
                continue;
            }
            out.push_back(static_cast<StorageId>(m_owner.size()));
            m_owner.push_back(owner);
            m_bytes.push_back(value->bytes());
        }
        return out;
    };
    const auto nodeArg = [&](NodeId n, std::size_t position) -> NodeId {
        const auto args = joint.children(joint.arg(joint.node(n).args));
        if (position < args.size() && args[position].kind == ArgKind::Node)
            return graph.resolve(args[position].node);
        return kNoNode;
    };
    const auto intArg = [&](NodeId n, std::size_t position) -> std::optional<std::int64_t> {
        const auto args = joint.children(joint.arg(joint.node(n).args));
        if (position < args.size() && args[position].kind == ArgKind::Int)
            return args[position].integer;
        return std::nullopt;
    };

    for (NodeId n : graph.order()) {
        const Node& node = joint.node(n);
        auto& mine = perNode[static_cast<std::size_t>(n)];
        if (node.op == NodeOp::Output)
            continue;
        if (node.op != NodeOp::CallFunction) {
            mine = allocate(n, node);
            continue;
        }
        const OpInfo& op = joint.opOf(n);
        const NodeId base = nodeArg(n, 0);
        const auto* baseStorages = base == kNoNode ? nullptr : &perNode[static_cast<std::size_t>(base)];
        const bool baseIsTensor = baseStorages && joint.node(base).valueKind == ValueKind::Tensor
            && baseStorages->size() == 1 && baseStorages->front() != kNone;

        if (op.packet == "_operator.getitem" && baseStorages) {
            // An element of a tuple: the split's base, or the tuple op's own allocation.
            auto index = intArg(n, 1).value_or(0);
            const auto count = static_cast<std::int64_t>(baseStorages->size());
            if (index < 0)
                index += count;
            if (index >= 0 && index < count && (*baseStorages)[static_cast<std::size_t>(index)] != kNone
                && node.valueKind == ValueKind::Tensor) {
                mine = {(*baseStorages)[static_cast<std::size_t>(index)]};
                continue;
            }
            mine = allocate(n, node);
            continue;
        }
        if (baseIsTensor) {
            const TensorMeta& from = *joint.node(base).values.front();
            bool alias = false;
            if (isViewPacket(op.packet))
                alias = node.valueKind == ValueKind::Tensor;
            else if (isSplitPacket(op.packet))
                alias = node.valueKind == ValueKind::TensorList;
            else if (op.isOverload && op.name.size() > 1 && op.name.back() == '_'
                && !op.name.starts_with("__"))
                alias = node.valueKind == ValueKind::Tensor; // in place: returns self
            else if (op.packet == "aten.reshape")
                alias = node.valueKind == ValueKind::Tensor && isContiguous(from);
            else if (op.packet == "aten.to" || op.packet == "aten.type_as" || op.packet == "aten.contiguous")
                alias = node.valueKind == ValueKind::Tensor && sameLayout(from, node.tensor());
            if (alias) {
                mine.assign(node.values.size(), baseStorages->front());
                continue;
            }
        }
        mine = allocate(n, node);
    }

    m_offsets.assign(joint.size() + 1, 0);
    for (std::size_t i = 0; i < joint.size(); ++i)
        m_offsets[i + 1] = m_offsets[i] + static_cast<std::uint32_t>(perNode[i].size());
    m_items.reserve(m_offsets.back());
    for (auto& list : perNode)
        m_items.insert(m_items.end(), list.begin(), list.end());

    for (NodeId owner : m_owner) {
        const NodeOp op = joint.node(owner).op;
        m_isInput.push_back(op == NodeOp::Placeholder || op == NodeOp::GetAttr ? 1 : 0);
    }

    // Storages are numbered as their owners allocate them, owners in graph order.
    m_allocatedOffsets.assign(joint.size() + 1, 0);
    for (std::size_t s = 0; s < m_owner.size(); ++s)
        ++m_allocatedOffsets[static_cast<std::size_t>(m_owner[s]) + 1];
    for (std::size_t i = 0; i < joint.size(); ++i)
        m_allocatedOffsets[i + 1] += m_allocatedOffsets[i];
    m_allocated.resize(m_owner.size());
    std::vector<std::uint32_t> fill(m_allocatedOffsets.begin(), m_allocatedOffsets.end() - 1);
    for (std::size_t s = 0; s < m_owner.size(); ++s)
        m_allocated[fill[static_cast<std::size_t>(m_owner[s])]++] = static_cast<StorageId>(s);
}

std::optional<StorageMap::StorageId> StorageMap::storageOf(NodeId n) const
{
    if (m_graph->node(n).valueKind != ValueKind::Tensor)
        return std::nullopt;
    const auto list = storagesOf(n);
    if (list.size() != 1 || list.front() == kNone)
        return std::nullopt;
    return list.front();
}

std::int64_t distinctStorageBytes(const StorageMap& storages, std::span<const NodeId> values)
{
    std::vector<char> seen(storages.storageCount(), 0);
    std::int64_t total = 0;
    for (NodeId n : values) {
        for (auto s : storages.storagesOf(n)) {
            if (s == StorageMap::kNone || storages.isInputStorage(s) || seen[static_cast<std::size_t>(s)])
                continue;
            seen[static_cast<std::size_t>(s)] = 1;
            total += storages.bytes(s);
        }
    }
    return total;
}

} // namespace remat
