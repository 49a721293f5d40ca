// SPDX-License-Identifier: MIT
#include "io/printed_placement.h"

#include <string_view>

namespace remat::printed {
namespace {

constexpr std::string_view kBackwardTrace = "Backward of forward node: ";

bool readsAny(JointGraphBuilder& builder, const Arg& arg, const std::vector<char>& marked)
{
    switch (arg.kind) {
    case ArgKind::Node:
        return marked[static_cast<std::size_t>(arg.node)] != 0;
    case ArgKind::List:
    case ArgKind::Dict: {
        const std::uint32_t count = arg.kind == ArgKind::Dict ? 2 * arg.size : arg.size;
        for (std::uint32_t k = 0; k < count; ++k) {
            if (readsAny(builder, builder.argAt(arg.first + k), marked))
                return true;
        }
        return false;
    }
    default:
        return false;
    }
}

bool isTangent(const Node& node)
{
    return node.op == NodeOp::Placeholder && node.name.starts_with("tangents_");
}

bool tracedByTheBackward(const Node& node)
{
    return node.meta.source->stackTrace.starts_with(kBackwardTrace);
}

} // namespace

void inferPartitionerTags(std::vector<Node>& nodes, JointGraphBuilder& builder)
{
    bool anyTangent = false;
    for (const Node& node : nodes) {
        if (node.meta.partitionerTag != PartitionerTag::None)
            return; // the source said where its nodes belong
        anyTangent = anyTangent || isTangent(node);
    }
    if (!anyTangent)
        return;
    std::vector<char> fromTangent(nodes.size(), 0);
    bool inBackward = false;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        Node& node = nodes[i];
        if (node.op == NodeOp::Output)
            continue;
        if (node.op == NodeOp::Placeholder) {
            fromTangent[i] = isTangent(node) ? 1 : 0;
            node.meta.partitionerTag = isTangent(node) ? PartitionerTag::IsBackward : PartitionerTag::IsForward;
            continue;
        }
        fromTangent[i] = readsAny(builder, builder.argAt(node.args), fromTangent)
                || readsAny(builder, builder.argAt(node.kwargs), fromTangent)
            ? 1
            : 0;
        const bool backwardNode = fromTangent[i] || tracedByTheBackward(node);
        inBackward = inBackward || backwardNode;
        // Past the forward, a node with neither mark stays untagged: the input mutations 2.14 applies
        // at the end (copy_ into a BatchNorm's running stats, tagged must_be_in_forward) print no
        // stack trace, and an untagged mutable op stays in the forward, as those must.
        if (!inBackward)
            node.meta.partitionerTag = PartitionerTag::IsForward;
        else if (backwardNode)
            node.meta.partitionerTag = PartitionerTag::IsBackward;
    }
}

} // namespace remat::printed
