// SPDX-License-Identifier: MIT
#include "partition/tag_passes.h"

#include "analysis/placement.h"

#include <algorithm>
#include <unordered_set>

namespace remat {
namespace {

constexpr std::int64_t kUserTagRegion = 100000; // the id downstream projects use for manual tags

bool recomputes(CheckpointPolicy t)
{
    return t == CheckpointPolicy::MustRecompute || t == CheckpointPolicy::PreferRecompute;
}

/// The node at positional arg `position`, as CSE left it.
NodeId nodeArg(const WorkGraph& work, NodeId n, std::size_t position)
{
    const JointGraph& graph = work.graph();
    const auto args = graph.children(graph.arg(graph.node(n).args));
    if (position < args.size() && args[position].kind == ArgKind::Node)
        return work.resolve(args[position].node);
    return kNoNode;
}

} // namespace

std::optional<std::int64_t> effectiveAcGraphId(
    const JointGraph& graph, NodeId n, const std::vector<CheckpointPolicy>& tags)
{
    const Node& node = graph.node(n);
    if (node.meta.acGraphId)
        return node.meta.acGraphId;
    if (tags[static_cast<std::size_t>(n)] != node.meta.recompute
        && tags[static_cast<std::size_t>(n)] != CheckpointPolicy::None)
        return kUserTagRegion;
    return std::nullopt;
}

void cleanupRecomputeTags(const WorkGraph& graph, std::vector<CheckpointPolicy>& tags, bool defaultPartition)
{
    const JointGraph& joint = graph.graph();
    const auto tagOf = [&](NodeId n) -> CheckpointPolicy& { return tags[static_cast<std::size_t>(n)]; };
    for (NodeId n : graph.order()) {
        const auto users = graph.users(n);
        if (recomputes(tagOf(n))) {
            const auto region = effectiveAcGraphId(joint, n, tags);
            bool anyUserRecomputes = false;
            for (NodeId u : users) {
                if (!recomputes(tagOf(u)))
                    continue;
                anyUserRecomputes = true;
                const auto userRegion = effectiveAcGraphId(joint, u, tags);
                if (region && userRegion && *userRegion > *region)
                    tagOf(n) = CheckpointPolicy::MustSave; // the boundary of two consecutive regions
            }
            if (joint.node(n).meta.hasBackwardHook && !anyUserRecomputes)
                tagOf(n) = CheckpointPolicy::MustSave;
        } else if (defaultPartition && !effectiveAcGraphId(joint, n, tags)) {
            const bool feedsRegion
                = std::any_of(users.begin(), users.end(), [&](NodeId u) { return recomputes(tagOf(u)); });
            const NodeId producer = nodeArg(graph, n, 0);
            const bool getitemOfRegion = joint.opOf(n).packet == "_operator.getitem" && producer != kNoNode
                && effectiveAcGraphId(joint, producer, tags);
            if (feedsRegion && !getitemOfRegion)
                tagOf(n) = CheckpointPolicy::MustSave; // the inputs of a checkpointed region
        }
    }
}

std::vector<NodeId> dropUnrecomputableUserTags(const WorkGraph& graph, const OpCategories& ops,
    const std::vector<std::pair<NodeId, CheckpointPolicy>>& userTags, std::vector<CheckpointPolicy>& tags)
{
    std::vector<NodeId> dropped;
    for (const auto& [node, policy] : userTags) {
        if (recomputes(policy) && graph.alive(node) && mustBeInForward(graph, ops, node)) {
            tags[static_cast<std::size_t>(node)] = graph.node(node).meta.recompute;
            dropped.push_back(node);
        }
    }
    return dropped;
}

void forceSaveCollectives(
    const WorkGraph& graph, const OpCategories& ops, std::vector<CheckpointPolicy>& tags)
{
    for (NodeId n : graph.order()) {
        auto& tag = tags[static_cast<std::size_t>(n)];
        if (ops.collective(graph.node(n).target) && !recomputes(tag))
            tag = CheckpointPolicy::MustSave;
    }
}

void forceSaveBackwardMutationSources(const WorkGraph& graph, std::vector<CheckpointPolicy>& tags)
{
    const JointGraph& joint = graph.graph();
    // The input-mutation copies all sit at the very end of the joint graph.
    std::vector<NodeId> copies;
    const auto& order = graph.order();
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
        if (*it == graph.outputNode())
            continue;
        if (joint.opOf(*it).packet != "aten.copy_")
            break;
        copies.push_back(*it);
    }
    std::unordered_set<NodeId> mutatedInBackward;
    for (NodeId c : copies) {
        if (joint.node(c).meta.partitionerTag == PartitionerTag::MustBeInBackward)
            mutatedInBackward.insert(nodeArg(graph, c, 0));
    }
    for (NodeId c : copies) {
        if (joint.node(c).meta.partitionerTag != PartitionerTag::MustBeInForward)
            continue;
        const NodeId source = nodeArg(graph, c, 1);
        if (mutatedInBackward.contains(nodeArg(graph, c, 0)) && source != kNoNode)
            tags[static_cast<std::size_t>(source)] = CheckpointPolicy::MustSave;
    }
}

} // namespace remat
