// SPDX-License-Identifier: MIT
#include "analysis/node_roles.h"
#include "analysis/tensor_size.h"
#include "partition/distance_scale.h"
#include "partition/min_cut.h"
#include "partition/min_cut_network.h"

#include <algorithm>

namespace remat {
namespace {

class Torch113Rules {
public:
    explicit Torch113Rules(const MinCutProblem& problem)
        : m_p(problem)
        , m_joint(problem.graph.graph())
    { }

    /// ban_recomputation(node): returns the reason, or nullptr for "may recompute".
    const char* banReason(NodeId n) const
    {
        const Node& node = m_joint.node(n);
        if (node.op != NodeOp::CallFunction)
            return nullptr;
        if (!m_p.ops.recomputable(node.target))
            return "not in torch 1.13's recomputable-op list";
        if (m_p.ops.getitem(node.target))
            return nullptr;
        if (m_p.ops.compiler() == OpListCompiler::Inductor && m_p.classes.dist(n) > 4)
            return "inductor: more than 4 steps from the backward (dist_from_bw > 4)";
        if (!node.hasTensorMeta())
            return nullptr;
        std::int64_t inputBytes = 0;
        for (NodeId arg : m_p.graph.positionalNodeArgs(n)) {
            if (m_joint.node(arg).hasTensorMeta())
                inputBytes += partitionerSizeOf(m_joint.node(arg), RuleSet::Torch113);
        }
        const std::int64_t outputBytes = partitionerSizeOf(node, RuleSet::Torch113);
        if (outputBytes * 4 < inputBytes)
            return "reduction: output is less than a quarter of its inputs";
        return nullptr;
    }

    bool fusible(NodeId a, NodeId b) const
    {
        return m_p.ops.fusible(m_joint.node(a).target) && m_p.ops.fusible(m_joint.node(b).target);
    }

    bool materialized(NodeId n) const
    {
        if (m_joint.node(n).op == NodeOp::Placeholder)
            return true;
        const auto users = m_p.graph.users(n);
        return !std::all_of(users.begin(), users.end(), [&](NodeId u) { return fusible(n, u); });
    }

    std::int64_t weight(NodeId n) const
    {
        const Node& node = m_joint.node(n);
        if (!node.hasTensorMeta())
            return PartitionResult::kInfiniteWeight; // tuples cannot be saved
        const auto bytes = static_cast<double>(partitionerSizeOf(node, RuleSet::Torch113));
        // Python: int(mem_sz * (1.1 ** max(min(dist_from_bw, 100), 1))), truncated toward zero.
        const auto scaled = static_cast<std::int64_t>(bytes * distanceScale(m_p.classes.dist(n)));
        return materialized(n) ? scaled : 2 * scaled;
    }

private:
    const MinCutProblem& m_p;
    const JointGraph& m_joint;
};

} // namespace

namespace {

/// 1.13's network for `problem`: bans, save edges and data edges; `weights` per node.
void buildTorch113Network(
    const MinCutProblem& problem, SplitNodeNetwork& network, std::vector<std::int64_t>& weights)
{
    const WorkGraph& graph = problem.graph;
    const JointGraph& joint = graph.graph();
    const Torch113Rules rules(problem);
    weights.assign(joint.size(), PartitionResult::kNoWeightEdge);
    const auto ban = [&](NodeId n, std::string reason) { network.ban(n, std::move(reason)); };

    for (NodeId n : graph.order()) {
        const Node& node = joint.node(n);
        if (node.op == NodeOp::Output)
            continue;
        if (problem.classes.isRequiredBw(n)) {
            network.inToSink(n);
            continue;
        }
        if (problem.mustRecompute(n)) { // a user tag; 1.13 itself has none
            network.inToSink(n);
            continue;
        }
        if (node.op == NodeOp::Placeholder && targetContains(joint, n, "primals"))
            ban(n, "primal input");
        const char* reason = rules.banReason(n);
        if (problem.classes.isRequiredFw(n)) {
            if (reason)
                ban(n, reason);
            else if (problem.mustSave(n) && node.op == NodeOp::CallFunction)
                ban(n, "tagged MUST_SAVE");
        }
        const std::int64_t w = rules.weight(n);
        weights[static_cast<std::size_t>(n)] = w;
        network.saveEdge(n, w);
        for (NodeId user : graph.users(n))
            network.dataEdge(n, user);
    }
}

} // namespace

MinCutSolution solveMinCutTorch113(const MinCutProblem& problem)
{
    SplitNodeNetwork network(problem.graph);
    MinCutSolution solution;
    buildTorch113Network(problem, network, solution.weights);
    auto cut = network.solve();
    solution.banned = network.takeBanned(); // 3k reasons on gpt_n48: moved, not copied
    solution.saved = std::move(cut.saved);
    solution.cutValue = cut.cutValue;
    return solution;
}

MinCutNetworkBuild buildMinCutNetworkTorch113(const MinCutProblem& problem)
{
    MinCutNetworkBuild build {SplitNodeNetwork(problem.graph), {}};
    buildTorch113Network(problem, build.network, build.solution.weights);
    build.solution.banned = build.network.banned();
    return build;
}

} // namespace remat
