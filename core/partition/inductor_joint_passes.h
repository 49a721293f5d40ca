// SPDX-License-Identifier: MIT
#pragma once

#include "partition/work_graph.h"

#include <string>
#include <vector>

namespace remat {

class OpCategories;

/// The nodes Inductor's joint-graph passes (torch 2.14, torch/_inductor/fx_passes/joint_graph.py)
/// remove before the partitioner runs, replayed for the passes that only remove nodes:
/// - remove_noop_ops: a view to its own size, an alias, a clone or copy with the same metadata, a
///   full slice, a repeat by ones, a zero pad, a conversion to the same dtype, a one-input cat,
///   pow by 1, ceil/floor/round/trunc of integers; not where that would make an output alias an
///   input or another output (its storage check);
/// - the early patterns pointless_view (a view to the size it has, -1 allowed once),
///   pointless_view_pair and pointless_permute_pair (a view or permute of a single-user one that
///   undoes it), tried on views and permutes from the last, as Inductor's pattern matcher does.
/// Not replayed, so a log they changed still differs (and says why): constant_fold_uniform_value,
/// the pattern passes (pointless_convert, the softmax and attention rewrites, ...) and
/// replace_random. Sizes must be static (a SymInt size is never taken as equal).
/// Returns, per node, kNoNode or the node its uses go to (applyMerges follows chains).
std::vector<NodeId> inductorJointPassRemovals(const WorkGraph& graph, const OpCategories& ops);

/// After dead-code elimination and CSE: records each removal in `mergedInto` (the node its uses
/// read in the end), adds a note naming them, and returns per node whether the passes removed it.
/// `removals` is empty when the passes did not run.
std::vector<char> foldJointPassRemovals(const WorkGraph& graph, const std::vector<NodeId>& removals,
    std::vector<NodeId>& mergedInto, std::vector<std::string>& notes);

} // namespace remat
