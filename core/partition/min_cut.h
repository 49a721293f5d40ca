// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/classification.h"
#include "analysis/op_categories.h"
#include "partition/min_cut_network.h"
#include "partition/partition_options.h"
#include "partition/partition_result.h"
#include "partition/work_graph.h"

#include <vector>

namespace remat {

/// Everything solve_min_cut reads, prepared once (DCE, CSE, classification, tag passes done).
struct MinCutProblem {
    const WorkGraph& graph;
    const OpCategories& ops;
    const NodeClasses& classes;
    const std::vector<CheckpointPolicy>& tags; ///< effective recompute policy per node
    const PartitionerConfig& config;
    std::vector<char> staticLifetime; ///< per node: a parameter/buffer primal (newest weights them 0)

    bool mustRecompute(NodeId n) const
    {
        const auto t = tags[static_cast<std::size_t>(n)];
        return t == CheckpointPolicy::MustRecompute || t == CheckpointPolicy::PreferRecompute;
    }
    bool mustSave(NodeId n) const { return tags[static_cast<std::size_t>(n)] == CheckpointPolicy::MustSave; }
};

struct MinCutSolution {
    std::vector<NodeId> saved; ///< graph order
    std::vector<BannedNode> banned;
    std::int64_t cutValue = 0;
    std::vector<std::int64_t> weights; ///< per node, see PartitionResult::weights
};

/// torch 1.13's network: its op lists, its ban rule, its weights (reference doc section 10).
/// User tags, which 1.13 did not have, are honoured as the newest rules do: MUST_SAVE bans,
/// MUST/PREFER_RECOMPUTE force recomputation.
MinCutSolution solveMinCutTorch113(const MinCutProblem& problem);

/// The newest solve_min_cut (reference doc section 4.2), with MinCutOptions and dont_ban.
MinCutSolution solveMinCutNewest(
    const MinCutProblem& problem, const MinCutOptions& options, const std::vector<char>& dontBan);

/// A network built but not solved, for callers that solve variants of it many times (the
/// memory-budget sweep) or draw it: `solution` has banned and weights, not saved nor cutValue.
struct MinCutNetworkBuild {
    SplitNodeNetwork network;
    MinCutSolution solution;
};
MinCutNetworkBuild buildMinCutNetworkNewest(
    const MinCutProblem& problem, const MinCutOptions& options, const std::vector<char>& dontBan);
/// torch 1.13's network, built but not solved (the teaching view draws it).
MinCutNetworkBuild buildMinCutNetworkTorch113(const MinCutProblem& problem);

} // namespace remat
