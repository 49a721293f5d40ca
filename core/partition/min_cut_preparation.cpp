// SPDX-License-Identifier: MIT
#include "partition/min_cut_preparation.h"

#include "analysis/node_roles.h"
#include "graph/error.h"
#include "partition/cse.h"
#include "partition/fw_bw_split.h"
#include "partition/inductor_joint_passes.h"
#include "partition/tag_passes.h"

#include <algorithm>

namespace remat {
namespace {

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

} // namespace

std::vector<CheckpointPolicy> effectiveTags(const JointGraph& graph, const PartitionOptions& options)
{
    // torch 1.13 knows no recompute tags: a file's tags count only under the newest rules.
    // The user's own tags apply under both (as constraints on top of 1.13's rules).
    std::vector<CheckpointPolicy> tags(graph.size(), CheckpointPolicy::None);
    if (options.rules == RuleSet::Newest) {
        for (std::size_t i = 0; i < graph.size(); ++i)
            tags[i] = graph.nodes()[i].meta.recompute;
    }
    for (const auto& [node, policy] : options.tags) {
        if (node < 0 || static_cast<std::size_t>(node) >= graph.size())
            throw Error("a tag names node #" + std::to_string(node) + ", which this graph does not have");
        if (graph.node(node).op == NodeOp::Placeholder && policy != CheckpointPolicy::None)
            throw Error("node '" + graph.node(node).name + "' is a graph input: inputs cannot be tagged");
        tags[static_cast<std::size_t>(node)] = policy;
    }
    // A checkpoint policy tags an op and the getitems that unpack its tuple alike (2.14 prints
    // them under one "MUST_SAVE" comment): a user's tag on such an op reaches its getitems too,
    // unless the user tagged one of them. Tagging native_dropout alone would otherwise ask to save
    // a tuple, which cannot be saved, while its mask stays tagged for recomputation.
    for (const auto& [node, policy] : options.tags) {
        for (NodeId user : graph.node(node).users) {
            const bool userTagged = std::any_of(options.tags.begin(), options.tags.end(),
                [user](const auto& tag) { return tag.first == user; });
            if (!userTagged && graph.opOf(user).target == "_operator.getitem")
                tags[static_cast<std::size_t>(user)] = policy;
        }
    }
    return tags;
}

bool hasRecomputeTags(const std::vector<CheckpointPolicy>& tags)
{
    for (auto t : tags) {
        if (t == CheckpointPolicy::MustRecompute || t == CheckpointPolicy::PreferRecompute)
            return true;
    }
    return false;
}

PreparedMinCut::PreparedMinCut(const JointGraph& graph, const PartitionOptions& options)
    : m_joint(&graph)
    , m_options(options)
    , m_work(graph)
    , m_ops(graph, options.rules, options.compiler)
    , m_tags(effectiveTags(graph, options))
{
    const bool newest = options.rules == RuleSet::Newest;
    std::vector<NodeId> jointPassInto;
    if (newest && options.config.inductorJointPasses) {
        jointPassInto = inductorJointPassRemovals(m_work, m_ops);
        m_work.applyMerges(jointPassInto);
    }
    m_dceRemoved = m_work.eliminateDeadCode([&](NodeId n) {
        const Node& node = graph.node(n);
        return node.op == NodeOp::Placeholder || node.op == NodeOp::Output
            || keptWithoutUsers(graph, m_ops, node.target);
    });
    if (!newest || options.config.cse) {
        m_mergedInto = findCommonSubexpressions(m_work, m_ops);
        m_work.applyMerges(m_mergedInto);
    } else {
        m_mergedInto.assign(graph.size(), kNoNode);
    }
    m_removedByJointPasses = foldJointPassRemovals(m_work, jointPassInto, m_mergedInto, m_notes);
    if (newest) {
        const auto dropped = dropUnrecomputableUserTags(m_work, m_ops, options.tags, m_tags);
        if (!dropped.empty())
            m_notes.push_back(std::to_string(dropped.size()) + " recompute tags not applied: '"
                + graph.node(dropped.front()).name
                + "' and the others mutate an input, so they must run in the forward");
        if (hasRecomputeTags(m_tags))
            cleanupRecomputeTags(m_work, m_tags, false);
        forceSaveCollectives(m_work, m_ops, m_tags);
        forceSaveBackwardMutationSources(m_work, m_tags);
    }
    m_classes = classifyNodes(m_work, m_ops);
    for (NodeId n : m_work.order())
        m_hasBackward = m_hasBackward || m_classes.isRequiredBw(n);
    m_staticLifetime = staticLifetimeInputs(graph, m_work);
    m_splitter = std::make_unique<ForwardBackwardSplitter>(m_work, m_ops, newest);
}

MinCutOptions PreparedMinCut::baseOptions() const
{
    MinCutOptions base = m_options.config.minCut;
    if (m_options.config.aggressiveRecomputation) {
        base.banIfUsedFarApart = base.banIfLongFusibleChains = false;
        base.banIfMaterializedBackward = base.banIfNotInAllowlist = false;
    }
    return base;
}

MinCutSolution PreparedMinCut::solve(const MinCutOptions& options, const std::vector<char>& dontBan) const
{
    const MinCutProblem problem {m_work, m_ops, m_classes, m_tags, m_options.config, m_staticLifetime};
    if (m_options.rules == RuleSet::Newest)
        return solveMinCutNewest(problem, options, dontBan);
    return solveMinCutTorch113(problem);
}

MinCutNetworkBuild PreparedMinCut::buildNetwork(
    const MinCutOptions& options, const std::vector<char>& dontBan) const
{
    const MinCutProblem problem {m_work, m_ops, m_classes, m_tags, m_options.config, m_staticLifetime};
    if (m_options.rules != RuleSet::Newest)
        return buildMinCutNetworkTorch113(problem); // 1.13 has no options nor dont_ban
    return buildMinCutNetworkNewest(problem, options, dontBan);
}

void PreparedMinCut::finish(MinCutSolution solution, PartitionResult& result) const
{
    result.options = m_options;
    result.effectiveTags = m_tags;
    result.dceRemoved = m_dceRemoved;
    result.mergedInto = m_mergedInto;
    result.removedByJointPasses = m_removedByJointPasses;
    result.classes = m_classes;
    result.banned = std::move(solution.banned);
    result.cutValue = solution.cutValue;
    result.weights = std::move(solution.weights);
    result.notes.insert(result.notes.end(), m_notes.begin(), m_notes.end());
    m_splitter->split(std::move(solution.saved), result);
}

void PreparedMinCut::split(std::vector<NodeId> saved, PartitionResult& result) const
{
    m_splitter->split(std::move(saved), result);
}

} // namespace remat
