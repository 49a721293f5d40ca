// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/op_categories.h"
#include "partition/work_graph.h"

#include <vector>

namespace remat {

// The newest partitioners rewrite recompute tags before partitioning (reference doc 6.3, 6.4).
// `tags` holds the effective policy per node and is updated in place.

/// ac_graph_id as the passes see it: the node's own, or a shared id for the user's tags, so that
/// tags set in Remat Explorer never count as "two consecutive checkpoint regions".
std::optional<std::int64_t> effectiveAcGraphId(
    const JointGraph& graph, NodeId n, const std::vector<CheckpointPolicy>& tags);

/// cleanup_recompute_tags: saves the boundary between consecutive checkpoint regions and region
/// outputs that carry a backward hook; under the default partitioner also the inputs of regions.
void cleanupRecomputeTags(const WorkGraph& graph, std::vector<CheckpointPolicy>& tags, bool defaultPartition);

/// Not a PyTorch pass: the user's recompute tags (options.tags) on nodes that must run in the
/// forward (in-place ops of a torch 1.13 graph, such as dropout's bernoulli_) are put back to the
/// file's tag, since no backward can recompute them and the plan would fail to extract. Returns
/// those nodes.
std::vector<NodeId> dropUnrecomputableUserTags(const WorkGraph& graph, const OpCategories& ops,
    const std::vector<std::pair<NodeId, CheckpointPolicy>>& userTags, std::vector<CheckpointPolicy>& tags);

/// force_save_collectives: collectives (_c10d_functional) that are not tagged for recomputation
/// become MUST_SAVE, so every rank decides alike.
void forceSaveCollectives(
    const WorkGraph& graph, const OpCategories& ops, std::vector<CheckpointPolicy>& tags);

/// force_save_bw_mutation_src: a forward input mutation whose destination the backward mutates too
/// saves its source, so it is not applied twice.
void forceSaveBackwardMutationSources(const WorkGraph& graph, std::vector<CheckpointPolicy>& tags);

} // namespace remat
