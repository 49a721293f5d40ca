// SPDX-License-Identifier: MIT
#include "analysis/node_roles.h"
#include "analysis/placement.h"
#include "analysis/tensor_size.h"
#include "graph/checkpoint_policy.h"
#include "partition/distance_scale.h"
#include "partition/min_cut.h"
#include "partition/min_cut_network.h"

#include <algorithm>
#include <cmath>
#include <queue>
#include <set>
#include <tuple>

namespace remat {
namespace {

class NewestRules {
public:
    NewestRules(const MinCutProblem& problem, const MinCutOptions& options)
        : m_p(problem)
        , m_joint(problem.graph.graph())
        , m_options(options)
    { }

    const OpInfo& op(NodeId n) const { return m_joint.opOf(n); }
    bool view(NodeId n) const
    {
        return m_joint.node(n).op == NodeOp::CallFunction && m_p.ops.view(m_joint.node(n).target);
    }
    bool callFunction(NodeId n) const { return m_joint.node(n).op == NodeOp::CallFunction; }

    bool fusible(NodeId a, NodeId b) const
    {
        if (op(b).packet == "aten.cat")
            return true; // memory fusion into a cat
        return callFunction(a) && callFunction(b) && m_p.ops.fusible(m_joint.node(a).target)
            && m_p.ops.fusible(m_joint.node(b).target);
    }

    bool materialized(NodeId n) const
    {
        if (m_joint.node(n).op == NodeOp::Placeholder)
            return true;
        const auto users = m_p.graph.users(n);
        return std::any_of(users.begin(), users.end(), [&](NodeId u) { return !fusible(n, u); });
    }

    bool materializedBackwards(NodeId n) const
    {
        if (view(n))
            return false;
        std::vector<NodeId> pending {n};
        std::vector<char> queued(m_joint.size(), 0);
        queued[static_cast<std::size_t>(n)] = 1;
        while (!pending.empty()) {
            const NodeId current = pending.back();
            pending.pop_back();
            for (NodeId user : m_p.graph.users(current)) {
                if (!m_p.classes.isRequiredFw(user) && !fusible(current, user))
                    return true;
                if (view(user) && !queued[static_cast<std::size_t>(user)]) {
                    queued[static_cast<std::size_t>(user)] = 1;
                    pending.push_back(user);
                }
            }
        }
        return false;
    }

    /// should_ban_recomputation: the reason, or empty for "may recompute".
    std::string banReason(NodeId n) const
    {
        const Node& node = m_joint.node(n);
        if (node.op != NodeOp::CallFunction)
            return {};
        if (m_p.ops.getitem(node.target))
            return {};
        if (m_p.mustSave(n))
            return "tagged MUST_SAVE";
        if (m_p.config.recomputeViews && view(n))
            return {};
        const auto& packet = op(n).packet;
        if (packet == "aten.lift_fresh_copy" || packet == "aten.lift_fresh")
            return {};
        if (m_options.banIfNotInAllowlist) {
            if (!m_p.ops.recomputable(node.target))
                return "not in the recomputable-op allowlist";
        } else {
            if (m_p.ops.random(node.target))
                return "random op";
            if (m_p.ops.computeIntensive(node.target))
                return "compute-intensive op";
            // Not a PyTorch rule (its 2.x joint graphs are functional): a node pinned to the forward,
            // such as torch 1.13's in-place bernoulli_, cannot be recomputed, or extraction fails.
            if (mustBeInForward(m_p.graph, m_p.ops, n))
                return "must run in the forward (mutates its input)";
        }
        if (m_options.banIfMaterializedBackward && materializedBackwards(n))
            return "materialized in the backward";
        if (m_options.banIfReduction) {
            std::int64_t inputBytes = 0;
            for (NodeId arg : m_p.graph.positionalNodeArgs(n))
                inputBytes += partitionerSizeOf(m_joint.node(arg), RuleSet::Newest);
            if (partitionerSizeOf(node, RuleSet::Newest) * 4 < inputBytes)
                return "reduction: output is less than a quarter of its inputs";
        }
        return {};
    }

    std::int64_t weight(NodeId n) const
    {
        const Node& node = m_joint.node(n);
        if (node.valueKind == ValueKind::Symbolic)
            return node.symbolicFloat ? 4 : 1; // 2.14's sym_node_size: saving a SymInt is nearly free
        if (node.valueKind != ValueKind::Tensor)
            return PartitionResult::kInfiniteWeight; // non-tensors and tuples cannot be saved
        if (m_p.config.treatParametersAsFreeToSave && m_p.staticLifetime[static_cast<std::size_t>(n)])
            return 0;
        if (m_p.config.recomputeViews && view(n))
            return PartitionResult::kInfiniteWeight;
        const auto bytes = static_cast<double>(partitionerSizeOf(node, RuleSet::Newest));
        const auto scaled = static_cast<std::int64_t>(std::floor(bytes * distanceScale(m_p.classes.dist(n))));
        return materialized(n) ? scaled : 2 * scaled;
    }

private:
    const MinCutProblem& m_p;
    const JointGraph& m_joint;
    const MinCutOptions& m_options;
};

} // namespace

MinCutNetworkBuild buildMinCutNetworkNewest(
    const MinCutProblem& problem, const MinCutOptions& options, const std::vector<char>& dontBan)
{
    const WorkGraph& graph = problem.graph;
    const JointGraph& joint = graph.graph();
    const NodeClasses& classes = problem.classes;
    const NewestRules rules(problem, options);
    MinCutNetworkBuild build {SplitNodeNetwork(graph), {}};
    SplitNodeNetwork& network = build.network;
    MinCutSolution& solution = build.solution;
    solution.weights.assign(joint.size(), PartitionResult::kNoWeightEdge);
    // ban_recomputation_if_allowed
    const auto ban = [&](NodeId n, std::string reason) {
        if (rules.view(n))
            return; // views are never banned
        if (dontBan[static_cast<std::size_t>(n)] && !problem.ops.collective(joint.node(n).target))
            return;
        if (problem.mustRecompute(n))
            return;
        network.ban(n, std::move(reason));
    };
    const auto banned = [&](NodeId n) { return network.isBanned(n); };

    for (NodeId n : graph.order()) {
        const Node& node = joint.node(n);
        if (node.op == NodeOp::Output)
            continue;
        if (classes.isRequiredBw(n)) {
            if (classes.tangentClosure[static_cast<std::size_t>(n)]) {
                network.inToSink(n, "required for a gradient");
                continue;
            }
            network.outToSink(n); // a gradient that only needs to be available: it may be saved
        }
        if (problem.mustRecompute(n)) {
            network.inToSink(
                n, "tagged " + std::string(checkpointPolicyName(problem.tags[static_cast<std::size_t>(n)])));
            continue;
        }
        if (isPrimalNewest(joint, n))
            ban(n, "primal input");
        else if (isFwdSeedOffset(joint, n))
            ban(n, "forward RNG seed");
        if (classes.isRequiredFw(n)) {
            if (auto reason = rules.banReason(n); !reason.empty())
                ban(n, std::move(reason));
        }
        const std::int64_t w = rules.weight(n);
        solution.weights[static_cast<std::size_t>(n)] = w;
        network.saveEdge(n, w);
        for (NodeId user : graph.users(n))
            network.dataEdge(n, user);
    }

    // Forward nodes in forward order, for the two heuristics below.
    std::vector<NodeId> forward;
    for (NodeId n : graph.order()) {
        if (classes.isRequiredFw(n))
            forward.push_back(n);
    }
    const auto order = [&](NodeId n) { return classes.fwOrder[static_cast<std::size_t>(n)]; };

    if (options.banIfUsedFarApart) {
        // If a value feeds a nearby fusible consumer and also a far one, recomputing the far one
        // would prevent the fusion: ban the far consumer ("most questionable heuristic").
        using Entry = std::tuple<int, NodeId, bool>;
        const auto firstUnfusible = [&](const std::vector<NodeId>& starts, int maxRange) {
            std::priority_queue<Entry, std::vector<Entry>, std::greater<>> heap;
            std::set<Entry> inHeap;
            for (NodeId s : starts) {
                const Entry e {order(s), s, true};
                if (inHeap.insert(e).second)
                    heap.push(e);
            }
            while (!heap.empty()) {
                const auto [o, n, fusibleSoFar] = heap.top();
                inHeap.erase(heap.top());
                heap.pop();
                if (!fusibleSoFar)
                    return o;
                for (NodeId u : graph.users(n)) {
                    if (classes.isRequiredFw(u) && order(u) <= maxRange) {
                        const Entry e {order(u), u, rules.fusible(n, u)};
                        if (inHeap.insert(e).second)
                            heap.push(e);
                    }
                }
            }
            return maxRange;
        };
        for (NodeId p : forward) {
            std::vector<NodeId> fwUsers;
            int maxOrder = -1;
            for (NodeId u : graph.users(p)) {
                if (classes.isRequiredFw(u)) {
                    fwUsers.push_back(u);
                    maxOrder = std::max(maxOrder, order(u));
                }
            }
            if (fwUsers.empty())
                continue;
            const int limit = firstUnfusible(fwUsers, maxOrder);
            for (NodeId u : graph.users(p)) {
                if (classes.isRequiredFw(u) && order(u) > limit && rules.fusible(p, u) && !banned(u))
                    ban(u, "used far apart from its producer's other uses");
            }
        }
    }

    if (options.banIfLongFusibleChains) {
        // Avoid recomputing arbitrarily long fusible chains (residual streams) from the start.
        std::vector<char> visited(joint.size(), 0);
        using Entry = std::pair<int, NodeId>;
        for (NodeId start : forward) {
            std::priority_queue<Entry, std::vector<Entry>, std::greater<>> heap;
            heap.push({order(start), start});
            while (!heap.empty()) {
                const auto [o, current] = heap.top();
                heap.pop();
                if (visited[static_cast<std::size_t>(current)])
                    continue;
                visited[static_cast<std::size_t>(current)] = 1;
                if (o > order(start) + 100 && heap.empty()) {
                    ban(current, "end of a fusible chain longer than 100 nodes");
                    break;
                }
                for (NodeId u : graph.users(current)) {
                    if (classes.isRequiredFw(u) && rules.fusible(current, u) && !banned(u))
                        heap.push({order(u), u});
                }
            }
        }
    }

    solution.banned = network.banned();
    return build;
}

MinCutSolution solveMinCutNewest(
    const MinCutProblem& problem, const MinCutOptions& options, const std::vector<char>& dontBan)
{
    MinCutNetworkBuild build = buildMinCutNetworkNewest(problem, options, dontBan);
    auto cut = build.network.solve();
    build.solution.saved = std::move(cut.saved);
    build.solution.cutValue = cut.cutValue;
    return std::move(build.solution);
}

} // namespace remat
