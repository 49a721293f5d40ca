// SPDX-License-Identifier: MIT
#include "explain/node_decision.h"

#include "budget/region_budget.h"
#include "graph/checkpoint_policy.h"

#include <algorithm>

namespace remat {
namespace {

/// What the plan's lists say about one node.
struct Membership {
    bool saved = false;
    bool recomputed = false;
    const BannedNode* ban = nullptr;
    bool forward = false;
    bool backward = false;
};

bool contains(const std::vector<NodeId>& nodes, NodeId n)
{
    return std::find(nodes.begin(), nodes.end(), n) != nodes.end();
}

Membership membershipOf(const PartitionResult& r, NodeId n)
{
    return {r.isSaved(n), contains(r.recomputed, n), r.banReason(n), contains(r.fwNodes, n),
        contains(r.bwNodes, n)};
}

bool requiredBw(const PartitionResult& r, NodeId n)
{
    return !r.classes.requiredBw.empty() && r.classes.isRequiredBw(n);
}

CheckpointPolicy tagOf(const PartitionResult& r, NodeId n)
{
    return r.effectiveTags.empty() ? CheckpointPolicy::None : r.effectiveTags[static_cast<std::size_t>(n)];
}

NodeDecision decide(const JointGraph& graph, const PartitionResult& r, NodeId n, const Membership& m)
{
    if (graph.node(n).op == NodeOp::Placeholder)
        return NodeDecision::Input;
    // A MUST_SAVE tag bans recomputing the node: the tag, not a rule, decided it, and it can flip.
    if (m.ban && !(m.saved && tagOf(r, n) == CheckpointPolicy::MustSave))
        return NodeDecision::Banned;
    if (m.saved)
        return NodeDecision::Saved;
    if (m.recomputed)
        return NodeDecision::Recomputed;
    if (m.forward)
        return NodeDecision::Forward;
    if (m.backward)
        return NodeDecision::Backward;
    // In neither graph (dead code, merged away, unused): where the partitioner classed it.
    return requiredBw(r, n) ? NodeDecision::Backward : NodeDecision::Forward;
}

bool isRecomputeTag(CheckpointPolicy tag)
{
    return tag == CheckpointPolicy::MustRecompute || tag == CheckpointPolicy::PreferRecompute;
}

std::string budgetPrefix(const BudgetDecision& budget)
{
    return "Memory budget " + pythonFloat(budget.budget) + " (" + std::string(stageName(budget.stage))
        + "): ";
}

/// The stages that run no min-cut: they save inputs and what has to stay in the forward only.
bool noCut(const BudgetDecision* budget)
{
    return budget && budget->stage == BudgetStage::KeepInputs;
}

std::string savedReason(const PartitionResult& r, NodeId n, const BudgetDecision* budget)
{
    const CheckpointPolicy tag = tagOf(r, n);
    if (tag == CheckpointPolicy::MustSave)
        return "Tagged MUST_SAVE: the partitioner has to keep it for the backward.";
    if (noCut(budget))
        return budgetPrefix(*budget)
            + "only graph inputs, MUST_SAVE nodes and values pinned to the forward are saved.";
    if (r.options.partitioner == PartitionerKind::Default)
        return "The default partition saves every forward value the backward uses.";
    if (!r.cutValue)
        return "The plan saves it (its saved values were given, not cut).";
    std::string reason = "Its save edge is on the minimum cut: keeping it for the backward is cheaper than "
                         "recomputing what the backward needs from it.";
    if (tag == CheckpointPolicy::PreferSave)
        reason += " It is also tagged PREFER_SAVE.";
    return reason;
}

std::string recomputedReason(const PartitionResult& r, NodeId n, const BudgetDecision* budget)
{
    const CheckpointPolicy tag = tagOf(r, n);
    if (isRecomputeTag(tag))
        return "Tagged " + std::string(checkpointPolicyName(tag))
            + ": the backward computes it again from saved values.";
    if (noCut(budget))
        return budgetPrefix(*budget) + "the backward recomputes everything it can.";
    if (budget && budget->stage == BudgetStage::Knapsack && contains(budget->recomputable, n))
        return budgetPrefix(*budget) + "the knapsack allowed recomputing it (one of "
            + std::to_string(budget->knapsack.recomputed.size())
            + " banned nodes it stopped saving to fit the budget); the min-cut then recomputed it.";
    if (!r.cutValue)
        return "The backward needs it and the plan does not save it, so the backward recomputes it.";
    if (budget && !stageLiftedBans(budget->stage).empty())
        return budgetPrefix(*budget) + "its min-cut goes without "
            + std::string(stageLiftedBans(budget->stage))
            + ", and its save edge is not on that cut: recomputing it in the backward from saved values "
              "costs "
              "less than keeping it.";
    return "Not banned, and its save edge is not on the minimum cut: recomputing it in the backward from "
           "saved "
           "values costs less than keeping it.";
}

std::string bannedReason(const Membership& m, NodeId n, const PartitionResult& r)
{
    std::string reason = "Banned from recomputation: " + m.ban->reason + ".";
    if (m.saved)
        reason += " So the backward cannot compute it again: it is saved.";
    else if (m.recomputed)
        reason += " Yet the backward computes it (a forward node it depends on was recomputed).";
    else if (m.backward || requiredBw(r, n))
        reason += " The backward reads it through saved values downstream of it.";
    else
        reason += " It stays in the forward; the backward reads only values computed from it.";
    return reason;
}

std::string placementReason(const JointGraph& graph, const PartitionResult& r, NodeId n, const Membership& m)
{
    const auto i = static_cast<std::size_t>(n);
    if (std::binary_search(r.dceRemoved.begin(), r.dceRemoved.end(), n)) // graph order
        return "Removed as dead code before partitioning: nothing uses its value.";
    if (i < r.removedByJointPasses.size() && r.removedByJointPasses[i] && r.mergedInto[i] != kNoNode)
        return "Removed before partitioning by Inductor's joint-graph passes, as a no-op: its uses read '"
            + graph.node(r.mergedInto[i]).name + "' (replayed as PyTorch ran them for this log).";
    if (i < r.mergedInto.size() && r.mergedInto[i] != kNoNode)
        return "Merged into '" + graph.node(r.mergedInto[i]).name
            + "' by common-subexpression elimination: the partitioner decides for that node.";
    if (m.forward && m.backward)
        return "Runs in both graphs.";
    if (m.forward)
        return "Only the forward needs it: the backward uses neither it nor anything it recomputes from it.";
    if (m.backward && !r.classes.requiredFw.empty() && r.classes.isRequiredFw(n))
        return "A forward value the forward's outputs do not need and the plan does not save: it runs once, "
               "in "
               "the backward.";
    if (m.backward && !r.classes.requiredFw.empty() && r.classes.isUnclaimed(n))
        return "Computed from forward values alone, and only the backward reads it (the forward's outputs "
               "do not need it, so classify_nodes leaves it unclaimed): the plan does not save it, so it "
               "runs once, in the backward.";
    if (m.backward)
        return "Part of the backward: it computes gradients from the tangents and saved values.";
    return "In neither graph: the partitioned program does not use it.";
}

} // namespace

std::string_view decisionName(NodeDecision decision)
{
    switch (decision) {
    case NodeDecision::Saved:
        return "saved";
    case NodeDecision::Recomputed:
        return "recomputed";
    case NodeDecision::Banned:
        return "banned";
    case NodeDecision::Forward:
        return "forward";
    case NodeDecision::Backward:
        return "backward";
    case NodeDecision::Input:
        return "input";
    }
    return "";
}

NodeDecision decisionOf(const JointGraph& graph, const PartitionResult& result, NodeId n)
{
    return decide(graph, result, n, membershipOf(result, n));
}

std::vector<NodeDecision> decisionsOf(const JointGraph& graph, const PartitionResult& result)
{
    std::vector<Membership> m(graph.size());
    const auto at = [&](NodeId n) -> Membership& { return m[static_cast<std::size_t>(n)]; };
    for (NodeId n : result.savedValues)
        at(n).saved = true;
    for (NodeId n : result.savedSymNodes)
        at(n).saved = true;
    for (NodeId n : result.recomputed)
        at(n).recomputed = true;
    for (const auto& b : result.banned)
        at(b.node).ban = &b;
    for (NodeId n : result.fwNodes)
        at(n).forward = true;
    for (NodeId n : result.bwNodes)
        at(n).backward = true;
    std::vector<NodeDecision> out(graph.size());
    for (std::size_t i = 0; i < graph.size(); ++i)
        out[i] = decide(graph, result, static_cast<NodeId>(i), m[i]);
    return out;
}

std::string decisionReason(
    const JointGraph& graph, const PartitionResult& result, NodeId n, const BudgetDecision* budget)
{
    const Membership m = membershipOf(result, n);
    switch (decide(graph, result, n, m)) {
    case NodeDecision::Input:
        return m.saved
            ? "A graph input the backward reads: it is saved as it is (inputs cost the plan nothing and "
              "cannot be tagged)."
            : "A graph input (inputs cannot be tagged).";
    case NodeDecision::Banned:
        return bannedReason(m, n, result);
    case NodeDecision::Saved:
        if (graph.node(n).valueKind == ValueKind::Symbolic)
            return savedReason(result, n, budget)
                + " A SymInt: the forward returns it for the backward beside the saved tensors (PyTorch's "
                  "saved_sym_nodes).";
        return savedReason(result, n, budget);
    case NodeDecision::Recomputed:
        return recomputedReason(result, n, budget);
    case NodeDecision::Forward:
    case NodeDecision::Backward:
        return placementReason(graph, result, n, m);
    }
    return {};
}

} // namespace remat
