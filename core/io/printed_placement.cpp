// SPDX-License-Identifier: MIT
#include "io/printed_placement.h"

#include <algorithm>
#include <optional>
#include <string_view>

namespace remat::printed {
namespace {

constexpr std::string_view kBackwardTrace = "Backward of forward node: ";

void collectNodes(JointGraphBuilder& builder, const Arg& arg, std::vector<NodeId>& out)
{
    if (arg.kind == ArgKind::Node) {
        out.push_back(arg.node);
    } else if (arg.kind == ArgKind::List || arg.kind == ArgKind::Dict) {
        const std::uint32_t count = arg.kind == ArgKind::Dict ? 2 * arg.size : arg.size;
        for (std::uint32_t k = 0; k < count; ++k)
            collectNodes(builder, builder.argAt(arg.first + k), out);
    }
}

/// The nodes `node` reads, in its args and kwargs (the builder derives `inputs` only later).
std::vector<NodeId> nodesRead(JointGraphBuilder& builder, const Node& node)
{
    std::vector<NodeId> read;
    collectNodes(builder, builder.argAt(node.args), read);
    collectNodes(builder, builder.argAt(node.kwargs), read);
    return read;
}

bool isTangent(const Node& node)
{
    return node.op == NodeOp::Placeholder && node.name.starts_with("tangents_");
}

bool tracedByTheBackward(const Node& node)
{
    return node.meta.source->stackTrace.starts_with(kBackwardTrace);
}

/// Where the forward's trace ends, from dataflow alone (a print without stack traces): after the
/// last node a forward output is computed from, and the getitems and detaches of forward nodes
/// that follow it. Autograd traced those for the forward (the parts of a tuple op, the values it
/// saves); the backward begins at the first other node, which may read no tangent (the transpose
/// of a weight that a matmul's gradient needs). A detach of a detach is the backward unpacking a
/// saved value. nodes.size() when no op computes a forward output.
std::size_t endOfTheForward(const std::vector<Node>& nodes, JointGraphBuilder& builder, int numFwdOutputs)
{
    if (nodes.empty() || nodes.back().op != NodeOp::Output || numFwdOutputs <= 0)
        return nodes.size();
    std::vector<char> forward(nodes.size(), 0);
    std::vector<NodeId> pending;
    const Arg& leaves = builder.argAt(builder.argAt(nodes.back().args).first);
    for (std::uint32_t k = 0; k < leaves.size && k < static_cast<std::uint32_t>(numFwdOutputs); ++k) {
        if (const Arg& leaf = builder.argAt(leaves.first + k); leaf.kind == ArgKind::Node)
            pending.push_back(leaf.node);
    }
    std::optional<std::size_t> last;
    while (!pending.empty()) {
        const NodeId id = pending.back();
        pending.pop_back();
        const auto i = static_cast<std::size_t>(id);
        if (forward[i])
            continue;
        forward[i] = 1;
        if (nodes[i].op != NodeOp::Placeholder)
            last = std::max(last.value_or(0), i);
        for (NodeId input : nodesRead(builder, nodes[i]))
            pending.push_back(input);
    }
    const auto getitem = builder.findOp("_operator.getitem");
    const auto detach = builder.findOp("aten.detach.default");
    const auto is = [](const Node& node, std::optional<OpId> op) { return op && node.target == *op; };
    if (!last)
        return nodes.size(); // the forward returns inputs only: no op marks where it ends
    std::size_t end = *last + 1;
    for (; end + 1 < nodes.size(); ++end) {
        const Node& node = nodes[end];
        if (node.op == NodeOp::Placeholder)
            continue;
        const std::vector<NodeId> read = nodesRead(builder, node);
        const bool partOfForward = (is(node, getitem) || is(node, detach)) && read.size() == 1
            && forward[static_cast<std::size_t>(read.front())]
            && !(is(node, detach) && is(nodes[static_cast<std::size_t>(read.front())], detach));
        if (!partOfForward)
            break;
        forward[end] = 1;
    }
    return end;
}

} // namespace

void inferPartitionerTags(std::vector<Node>& nodes, JointGraphBuilder& builder, int numFwdOutputs)
{
    bool anyTangent = false;
    for (const Node& node : nodes) {
        if (node.meta.partitionerTag != PartitionerTag::None)
            return; // the source said where its nodes belong
        anyTangent = anyTangent || isTangent(node);
    }
    if (!anyTangent)
        return;
    const std::size_t forwardEnd = endOfTheForward(nodes, builder, numFwdOutputs);
    std::vector<char> fromTangent(nodes.size(), 0);
    bool inBackward = false;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        Node& node = nodes[i];
        if (node.op == NodeOp::Output)
            continue;
        if (node.op == NodeOp::Placeholder) {
            fromTangent[i] = isTangent(node) ? 1 : 0;
            node.meta.partitionerTag
                = isTangent(node) ? PartitionerTag::IsBackward : PartitionerTag::IsForward;
            continue;
        }
        const std::vector<NodeId> read = nodesRead(builder, node);
        fromTangent[i] = std::any_of(read.begin(), read.end(),
                             [&](NodeId input) { return fromTangent[static_cast<std::size_t>(input)] != 0; })
            ? 1
            : 0;
        const bool startsTheBackward = i == forwardEnd;
        const bool backwardNode = fromTangent[i] || tracedByTheBackward(node) || startsTheBackward;
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
