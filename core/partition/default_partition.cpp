// SPDX-License-Identifier: MIT
#include "partition/default_partition.h"

#include "analysis/classification.h"
#include "analysis/node_roles.h"
#include "graph/error.h"
#include "partition/extraction.h"
#include "partition/fw_bw_split.h"
#include "partition/inductor_joint_passes.h"
#include "partition/tag_passes.h"

#include <algorithm>

namespace remat {
namespace {

void fillNoMinCutDetails(
    const JointGraph& graph, const WorkGraph& work, const OpCategories& ops, PartitionResult& result)
{
    result.mergedInto.assign(graph.size(), kNoNode);
    result.weights.assign(graph.size(), PartitionResult::kNoWeightEdge);
    result.classes = classifyNodes(work, ops);
}

void keepFirstOccurrences(std::vector<NodeId>& nodes, std::size_t count)
{
    std::vector<char> seen(count, 0);
    std::erase_if(nodes, [&](NodeId n) { return std::exchange(seen[static_cast<std::size_t>(n)], 1) != 0; });
}

} // namespace

void defaultPartitionTorch113(const JointGraph& graph, const OpCategories& ops, PartitionResult& result)
{
    const WorkGraph work(graph);
    fillNoMinCutDetails(graph, work, ops, result);
    // The forward region: 1.13 extracts a forward-only graph, exactly required_fw.
    std::vector<NodeId> saved;
    for (NodeId n : work.order()) {
        if (!result.classes.isRequiredFw(n))
            continue;
        const Node& node = graph.node(n);
        if (!node.hasTensorMeta() && node.op == NodeOp::CallFunction) {
            // A tuple cannot be saved: save its getitems instead.
            for (NodeId user : work.users(n)) {
                if (!ops.getitem(graph.node(user).target))
                    throw Error("default partition: '" + node.name + "' returns several values but its user '"
                        + graph.node(user).name + "' is not a getitem");
                saved.push_back(user);
            }
        } else {
            saved.push_back(n);
        }
    }
    // 1.13 builds the list through set(): order is arbitrary there; graph order here.
    std::sort(saved.begin(), saved.end());
    keepFirstOccurrences(saved, graph.size());
    splitForwardBackward(work, ops, std::move(saved), result);
}

void defaultPartitionNewest(const JointGraph& graph, const OpCategories& ops, PartitionResult& result)
{
    WorkGraph work(graph);
    std::vector<NodeId> jointPassInto;
    if (result.options.config.inductorJointPasses) {
        jointPassInto = inductorJointPassRemovals(work, ops);
        work.applyMerges(jointPassInto);
    }
    auto& tags = result.effectiveTags;
    bool hasRecomputeTags = false;
    for (auto t : tags)
        hasRecomputeTags = hasRecomputeTags || t == CheckpointPolicy::MustRecompute
            || t == CheckpointPolicy::PreferRecompute;
    if (hasRecomputeTags)
        cleanupRecomputeTags(work, tags, true);
    forceSaveCollectives(work, ops, tags);
    forceSaveBackwardMutationSources(work, tags);
    fillNoMinCutDetails(graph, work, ops, result);
    result.removedByJointPasses = foldJointPassRemovals(work, jointPassInto, result.mergedInto, result.notes);

    // The forward region is placement, not dataflow: everything up to the last forward node.
    NodeId last = kNoNode;
    for (NodeId n : work.order()) {
        if (graph.node(n).meta.partitionerTag == PartitionerTag::IsForward || isPrimalNewest(graph, n)
            || isFwdSeedOffset(graph, n))
            last = n;
    }
    std::vector<char> inForward(graph.size(), 0);
    for (NodeId n : work.order()) {
        if (n > last)
            break;
        if (graph.node(n).op != NodeOp::Output && !isTangent(graph, n))
            inForward[static_cast<std::size_t>(n)] = 1;
    }

    std::vector<NodeId> saved;
    for (NodeId n : work.order()) {
        if (!inForward[static_cast<std::size_t>(n)])
            continue;
        const Node& node = graph.node(n);
        const auto& info = graph.op(node.target);
        if (info.packet == "aten._assert_scalar" || info.packet.starts_with("profiler._record_function"))
            continue; // safe to run twice
        const auto users = work.users(n);
        if (node.valueKind == ValueKind::Symbolic) {
            saved.push_back(n); // 2.14 keeps sym nodes apart; the split drops those the backward never reads
            continue;
        }
        const bool multiOutput = !users.empty() && std::all_of(users.begin(), users.end(), [&](NodeId u) {
            return ops.getitem(graph.node(u).target);
        });
        if (node.op == NodeOp::CallFunction && multiOutput && node.valueKind != ValueKind::Tensor)
            continue; // its getitems are handled one by one
        const auto tag = tags[static_cast<std::size_t>(n)];
        if (tag == CheckpointPolicy::MustSave) {
            saved.push_back(n);
            continue;
        }
        if (node.op == NodeOp::CallFunction && ops.sideEffectful(node.target) && !ops.random(node.target)) {
            if (hasRecomputeTags)
                throw Error("default partition: trying to apply activation checkpointing on a graph with the "
                            "impure op '"
                    + node.name + "' (" + info.target + ")");
            saved.push_back(n);
            continue;
        }
        if (node.op == NodeOp::CallFunction && node.valueKind == ValueKind::None)
            throw Error(
                "default partition: '" + node.name + "' (" + info.target + ") has no tensor value to save");
        bool usedByBackward = false;
        bool onlySizesInBackward = true;
        for (NodeId u : users) {
            if (!inForward[static_cast<std::size_t>(u)]) {
                usedByBackward = true;
                onlySizesInBackward = onlySizesInBackward && graph.node(u).valueKind == ValueKind::Symbolic;
            }
        }
        if (!usedByBackward)
            continue; // nothing in the backward reads it
        if (onlySizesInBackward) {
            // The backward reads only its sizes: 2.14 saves those sym nodes instead of the tensor.
            for (NodeId u : users) {
                if (!inForward[static_cast<std::size_t>(u)])
                    saved.push_back(u);
            }
            continue;
        }
        if (tag != CheckpointPolicy::MustRecompute && tag != CheckpointPolicy::PreferRecompute)
            saved.push_back(n);
    }
    keepFirstOccurrences(saved, graph.size());
    std::sort(saved.begin(), saved.end());
    splitForwardBackward(work, ops, std::move(saved), result);
}

} // namespace remat
