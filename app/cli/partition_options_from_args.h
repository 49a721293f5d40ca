// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/recording_rules.h"
#include "cli/arguments.h"
#include "graph/joint_graph.h"
#include "partition/partition_options.h"

#include <set>
#include <string>
#include <utility>
#include <vector>

namespace remat::cli {

/// --partitioner, --rules, --compiler, --tag, --inductor-passes: the options every partitioning
/// command shares.
const std::set<std::string>& partitionOptionNames();
/// --activation-offloading (torch._functorch.config.enable_activation_offloading) and its short
/// form --offload: flags every partitioning command takes.
const std::set<std::string>& partitionFlagNames();
bool activationOffloadingFrom(const Arguments& args);
/// The options without tags: those name nodes, which need the graph (see tagsFrom).
PartitionOptions partitionOptionsFrom(const Arguments& args);

/// Without --rules (or --compiler, a torch 1.13 option), a graph runs under the rules of the PyTorch
/// that recorded it: torch-2.14 for a 2.x export.
/// Then Inductor's joint-graph passes are replayed as --inductor-passes says (see
/// inductorJointPassesFrom).
void applyRulesOfRecording(PartitionOptions& options, const Arguments& args, const JointGraph& graph);

/// config.inductorJointPasses under `rules`: auto replays them when the recorded decisions came after
/// them (decidedAfterInductorJointPasses). Throws UsageError for "on" under torch-1.13.
bool inductorJointPassesFrom(const Arguments& args, RuleSet rules, const JointGraph& graph);

/// The --tag NAME=POLICY options as given (MUST_SAVE, PREFER_SAVE, MUST_RECOMPUTE,
/// PREFER_RECOMPUTE). Throws UsageError for a malformed tag or an unknown policy.
std::vector<std::pair<std::string, CheckpointPolicy>> tagArguments(const Arguments& args);
/// The --tag options resolved against the graph. Throws UsageError naming a node the graph does not
/// have or a graph input (inputs cannot be tagged).
std::vector<std::pair<NodeId, CheckpointPolicy>> tagsFrom(const Arguments& args, const JointGraph& graph);

/// The node a command-line argument names; throws UsageError naming it when the graph lacks it.
NodeId nodeNamed(const JointGraph& graph, const std::string& name, const std::string& what);

} // namespace remat::cli
