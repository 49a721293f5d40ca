// SPDX-License-Identifier: MIT
#include "explain/what_if.h"

#include "graph/error.h"

#include <algorithm>

namespace remat {
namespace {

std::optional<CheckpointPolicy> flipTagFor(NodeDecision decision)
{
    if (decision == NodeDecision::Saved)
        return CheckpointPolicy::MustRecompute;
    if (decision == NodeDecision::Recomputed)
        return CheckpointPolicy::MustSave;
    return std::nullopt;
}

/// Nodes other than `node` whose decision or saved-ness differs between the two plans.
std::vector<NodeId> changedBetween(
    const JointGraph& graph, const PartitionResult& before, const PartitionResult& after, NodeId node)
{
    const auto a = decisionsOf(graph, before);
    const auto b = decisionsOf(graph, after);
    std::vector<char> savedA(graph.size(), 0);
    std::vector<char> savedB(graph.size(), 0);
    for (NodeId n : before.savedValues)
        savedA[static_cast<std::size_t>(n)] = 1;
    for (NodeId n : after.savedValues)
        savedB[static_cast<std::size_t>(n)] = 1;
    std::vector<NodeId> changed;
    for (std::size_t i = 0; i < graph.size(); ++i) {
        if (static_cast<NodeId>(i) != node && (a[i] != b[i] || savedA[i] != savedB[i]))
            changed.push_back(static_cast<NodeId>(i));
    }
    return changed;
}

/// The op whose tuple (or list) `node` unpacks, when `node` is such a getitem; else kNoNode.
NodeId unpackedOp(const JointGraph& graph, NodeId node)
{
    const auto& args = graph.node(node).inputs;
    if (graph.opOf(node).target != "_operator.getitem" || args.empty())
        return kNoNode;
    const Node& op = graph.node(args.front());
    const bool multiOutput = op.op == NodeOp::CallFunction && !op.users.empty()
        && std::all_of(op.users.begin(), op.users.end(),
            [&](NodeId user) { return graph.opOf(user).target == "_operator.getitem"; });
    return multiOutput ? args.front() : kNoNode;
}

} // namespace

WhatIf whatIf(const PlanRunner& runner, const PlanRequest& base, NodeId node)
{
    const JointGraph& graph = runner.graph();
    if (node < 0 || static_cast<std::size_t>(node) >= graph.size())
        throw Error(graph.filePath() + ": what-if asked for node #" + std::to_string(node)
            + ", which it does not have");
    const PlanRun before = runner.run(base);
    WhatIf w;
    w.node = node;
    w.decision = decisionOf(graph, before.result, node);
    w.reason = decisionReason(graph, before.result, node, before.budget ? &*before.budget : nullptr);
    w.flipTag = flipTagFor(w.decision);
    w.flipNode = node;
    w.before = before.summary;
    w.after = before.summary;
    if (w.decision == NodeDecision::Banned) {
        // Some bans give way to a MUST_RECOMPUTE tag (an op-list ban; as in PyTorch 2.x, a
        // must-recompute node is never banned), others do not (a random op, a view of an input):
        // ask the partitioner rather than the rule book, and offer the flip only when it takes.
        try {
            const PlanRun tagged = runner.run(withTag(base, node, CheckpointPolicy::MustRecompute));
            if (decisionOf(graph, tagged.result, node) != NodeDecision::Banned) {
                w.flipTag = CheckpointPolicy::MustRecompute;
                w.after = tagged.summary;
                w.changedNodes = changedBetween(graph, before.result, tagged.result, node);
                w.flipped = true;
            }
        } catch (const Error&) {
            // The tag makes no plan: the ban stands, as the reason says.
        }
        return w;
    }
    if (!w.flipTag)
        return w;
    const auto tryFlip = [&](NodeId tagged) {
        try {
            const PlanRun after = runner.run(withTag(base, tagged, *w.flipTag));
            w.after = after.summary;
            w.changedNodes = changedBetween(graph, before.result, after.result, node);
            w.flipped = decisionOf(graph, after.result, node) != w.decision;
            w.feasible = true;
            w.error.clear();
        } catch (const Error& e) {
            w.feasible = false;
            w.error = e.what();
        }
    };
    tryFlip(node);
    // 2.14's should_ban_recomputation skips getitems before it reads MUST_SAVE, so a getitem is
    // saved for sure only through the op it unpacks, as a checkpoint policy tags them.
    const NodeId op = unpackedOp(graph, node);
    if (!w.flipped && *w.flipTag == CheckpointPolicy::MustSave && op != kNoNode) {
        WhatIf ownTagOnly = w;
        tryFlip(op);
        if (w.feasible && w.flipped)
            w.flipNode = op;
        else
            w = std::move(ownTagOnly);
    }
    return w;
}

} // namespace remat
