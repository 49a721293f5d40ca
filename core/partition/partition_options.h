// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/rule_set.h"
#include "graph/node.h"

#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace remat {

enum class PartitionerKind { Default, MinCut };

std::string_view partitionerName(PartitionerKind kind);
std::optional<PartitionerKind> parsePartitioner(std::string_view name);

/// The MinCutOptions of the newest partitioner: which recomputation bans apply.
struct MinCutOptions {
    bool banIfUsedFarApart = true;
    bool banIfLongFusibleChains = true;
    bool banIfMaterializedBackward = true;
    bool banIfNotInAllowlist = true;
    bool banIfReduction = true;
};

/// torch._functorch.config knobs the newest rules read (defaults as PyTorch ships them).
struct PartitionerConfig {
    MinCutOptions minCut;
    bool aggressiveRecomputation = false;
    bool recomputeViews = false;
    bool treatParametersAsFreeToSave = true;
    bool cse = true;
    /// enable_activation_offloading (torch 2.x, off by default): after the cut, saved values tagged
    /// MUST_/PREFER_CPU_OFFLOAD that can be offloaded go to the host (see activation_offloading.h).
    bool activationOffloading = false;
    /// Replay the joint-graph passes Inductor runs before partitioning that only remove nodes
    /// (remove_noop_ops, pointless views and permutes: see inductor_joint_passes.h). On for a log
    /// whose decision PyTorch made after them; torch-2.14 rules only.
    bool inductorJointPasses = false;
};

struct PartitionOptions {
    PartitionerKind partitioner = PartitionerKind::MinCut;
    RuleSet rules = RuleSet::Torch113;
    OpListCompiler compiler = OpListCompiler::Nvfuser;
    PartitionerConfig config;
    /// The user's tags (must save, must recompute, ...), overriding meta["recompute"] per node.
    std::vector<std::pair<NodeId, CheckpointPolicy>> tags;
};

} // namespace remat
