// SPDX-License-Identifier: MIT
#pragma once

#include "explain/unnamed_provenance.h"
#include "model/loaded_graph.h"
#include "partition/partition_result.h"

#include <QMetaType>
#include <QString>

#include <cstdint>
#include <memory>
#include <string_view>

namespace remat::ui {

struct BudgetOutcome;

/// Per-node facts about one partition, packed for painting 17k nodes without lookups.
enum DecisionFlag : std::uint16_t {
    Saved = 1 << 0, ///< crosses from the forward to the backward
    Recomputed = 1 << 1, ///< computed in the forward and again in the backward
    Banned = 1 << 2, ///< the partitioner may not recompute it
    DceRemoved = 1 << 3, ///< dead code, removed before partitioning
    CseMerged = 1 << 4, ///< a duplicate, merged into another node
    InForward = 1 << 5, ///< part of the forward graph
    InBackward = 1 << 6, ///< part of the backward graph
    ReferenceSaved = 1 << 7, ///< PyTorch's recorded decision saves it
};

/// A partition result with what the views need from it: flags per node, the reference it was
/// compared with, and the totals the summary shows.
struct PartitionOutcome {
    std::uint64_t generation = 0;
    PartitionOptions options;
    std::shared_ptr<const PartitionResult> result; ///< null when the partitioner failed
    QString error;
    std::vector<std::uint16_t> flags; ///< per node
    std::vector<int> banIndex; ///< per node: index into result->banned, or -1
    QString referenceKey; ///< the recorded partition compared against, empty if none
    std::vector<NodeId> onlyOurs; ///< saved by us, not by the reference
    std::vector<NodeId> onlyReference; ///< saved by the reference, not by us
    std::vector<std::string> unknownReferenceNames; ///< recorded saved values the graph lacks
    /// What explains a difference from the reference (differenceExplanation), and the setting that
    /// compares like with like.
    ProvenanceNote referenceNote;
    std::int64_t referenceSavedBytes = 0;
    /// Recomputed random ops whose RNG state the forward saves (savedRngStateOps), and how many
    /// RNG states the reference saves.
    std::vector<NodeId> rngStateOps;
    std::size_t referenceRngStates = 0;
    double seconds = 0; ///< wall time of partitionGraph (of the budget plan)
    /// The memory-budget partitioner's plan and numbers; null for the other partitioners.
    std::shared_ptr<const BudgetOutcome> budget;

    bool ok() const { return result != nullptr; }
    std::uint16_t flagsOf(NodeId n) const { return flags.empty() ? 0 : flags[static_cast<std::size_t>(n)]; }
    bool has(NodeId n, DecisionFlag f) const { return (flagsOf(n) & f) != 0; }
};

using PartitionOutcomePtr = std::shared_ptr<const PartitionOutcome>;

/// Fills the per-node view of `outcome.result` (flags, bans) and compares it with PyTorch's decision
/// recorded for the same options (and `budget` for a memory-budget plan), when the file has it.
void describePartition(PartitionOutcome& outcome, const LoadedGraph& graph,
    std::optional<double> budget = std::nullopt, std::string_view budgetVariant = {});

/// Runs the partitioner and derives the per-node view of its result. Never throws: a failure is
/// returned in `error` with the core's message.
PartitionOutcomePtr runPartition(
    const LoadedGraph& graph, const PartitionOptions& options, std::uint64_t generation);

} // namespace remat::ui

Q_DECLARE_METATYPE(remat::ui::PartitionOutcomePtr)
