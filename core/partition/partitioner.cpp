// SPDX-License-Identifier: MIT
#include "partition/partitioner.h"

#include "analysis/classification.h"
#include "analysis/node_roles.h"
#include "analysis/op_categories.h"
#include "graph/error.h"
#include "partition/cse.h"
#include "partition/default_partition.h"
#include "partition/fw_bw_split.h"
#include "partition/min_cut.h"
#include "partition/tag_passes.h"

#include <chrono>

namespace remat {
namespace {

std::vector<CheckpointPolicy> effectiveTags(const JointGraph& graph, const PartitionOptions& options)
{
    std::vector<CheckpointPolicy> tags(graph.size(), CheckpointPolicy::None);
    for (std::size_t i = 0; i < graph.size(); ++i)
        tags[i] = graph.nodes()[i].meta.recompute;
    for (const auto& [node, policy] : options.tags) {
        if (node < 0 || static_cast<std::size_t>(node) >= graph.size())
            throw Error("a tag names node #" + std::to_string(node) + ", which this graph does not have");
        if (graph.node(node).op == NodeOp::Placeholder && policy != CheckpointPolicy::None)
            throw Error("node '" + graph.node(node).name + "' is a graph input: inputs cannot be tagged");
        tags[static_cast<std::size_t>(node)] = policy;
    }
    return tags;
}

std::vector<char> staticLifetimeInputs(const JointGraph& graph, const WorkGraph& work)
{
    std::vector<char> isStatic(graph.size(), 0);
    std::vector<NodeId> primals;
    for (NodeId n : work.order()) {
        if (isPrimalNewest(graph, n))
            primals.push_back(n);
    }
    for (int index : graph.staticLifetimeInputIndices()) {
        if (index >= 0 && static_cast<std::size_t>(index) < primals.size())
            isStatic[static_cast<std::size_t>(primals[static_cast<std::size_t>(index)])] = 1;
    }
    return isStatic;
}

bool anyRecomputeTag(const std::vector<CheckpointPolicy>& tags)
{
    for (auto t : tags) {
        if (t == CheckpointPolicy::MustRecompute || t == CheckpointPolicy::PreferRecompute)
            return true;
    }
    return false;
}

void minCutPartition(const JointGraph& graph, const OpCategories& ops, PartitionResult& result)
{
    const auto& options = result.options;
    WorkGraph work(graph);
    const bool newest = options.rules == RuleSet::Newest;
    result.dceRemoved = work.eliminateDeadCode([&](NodeId n) {
        const Node& node = graph.node(n);
        return node.op == NodeOp::Placeholder || node.op == NodeOp::Output || ops.sideEffectful(node.target);
    });
    if (!newest || options.config.cse) {
        result.mergedInto = findCommonSubexpressions(work, ops);
        work.applyMerges(result.mergedInto);
    } else {
        result.mergedInto.assign(graph.size(), kNoNode);
    }

    if (newest) {
        if (anyRecomputeTag(result.effectiveTags))
            cleanupRecomputeTags(work, result.effectiveTags, false);
        forceSaveCollectives(work, ops, result.effectiveTags);
        forceSaveBackwardMutationSources(work, result.effectiveTags);
    }
    result.classes = classifyNodes(work, ops);

    bool anyBackward = false;
    for (NodeId n : work.order())
        anyBackward = anyBackward || result.classes.isRequiredBw(n);
    if (newest && !anyBackward) {
        result.notes.emplace_back("the graph has no backward: min-cut falls back to the default partition");
        defaultPartitionNewest(graph, ops, result);
        return;
    }

    MinCutProblem problem {work, ops, result.classes, result.effectiveTags, options.config,
                           staticLifetimeInputs(graph, work)};
    MinCutSolution solution;
    if (newest) {
        MinCutOptions minCut = options.config.minCut;
        if (options.config.aggressiveRecomputation) {
            minCut.banIfUsedFarApart = minCut.banIfLongFusibleChains = false;
            minCut.banIfMaterializedBackward = minCut.banIfNotInAllowlist = false;
        }
        solution = solveMinCutNewest(problem, minCut, std::vector<char>(graph.size(), 0));
    } else {
        solution = solveMinCutTorch113(problem);
    }
    result.banned = std::move(solution.banned);
    result.cutValue = solution.cutValue;
    result.weights = std::move(solution.weights);
    splitForwardBackward(work, ops, std::move(solution.saved), result);
}

} // namespace

PartitionResult partitionGraph(const JointGraph& graph, const PartitionOptions& options)
{
    const auto start = std::chrono::steady_clock::now();
    if (graph.kind() == GraphKind::Forward)
        throw Error(graph.filePath() + ": a forward-only graph has no backward to partition");
    PartitionResult result;
    result.options = options;
    result.effectiveTags = effectiveTags(graph, options);
    const OpCategories ops(graph, options.rules, options.compiler);
    if (options.partitioner == PartitionerKind::MinCut) {
        minCutPartition(graph, ops, result);
    } else if (options.rules == RuleSet::Newest) {
        defaultPartitionNewest(graph, ops, result);
    } else {
        defaultPartitionTorch113(graph, ops, result);
    }
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
}

} // namespace remat
