// SPDX-License-Identifier: MIT
#pragma once

#include "model/partition_outcome.h"

#include <QString>

namespace remat::ui {

/// One line saying what the partitioner did with a node: "saved for the backward",
/// "recomputed in the backward", "forward only", "removed as dead code", ...
QString decisionHeadline(const LoadedGraph& graph, const PartitionOutcome* outcome, NodeId n);

/// Why, in a sentence or two: the ban rule, the cut, the tag (HTML-safe plain text).
QString decisionReason(const LoadedGraph& graph, const PartitionOutcome* outcome, NodeId n);

/// "MUST_SAVE (your tag)", "PREFER_RECOMPUTE (from the file)", "none".
QString tagDescription(const LoadedGraph& graph, CheckpointPolicy inForce, bool userSet,
    const PartitionOutcome* outcome, NodeId n);

/// "min-cut · torch-1.13 rules · nvfuser op list"
QString optionsDescription(const PartitionOptions& options);

} // namespace remat::ui
