// SPDX-License-Identifier: MIT
#pragma once

#include "explain/recorded_plan.h"

#include <optional>
#include <string>
#include <vector>

namespace remat {

struct PartitionResult;

/// A plan's saved values against PyTorch's decision recorded for the same rules, op list and
/// budget. The one comparison the command line, the app and the tests use.
struct RecordedComparison {
    RecordedPlan plan;
    std::vector<NodeId> onlyOurs; ///< saved by the plan, not by PyTorch (graph order)
    std::vector<NodeId> onlyRecorded; ///< saved by PyTorch, not by the plan (graph order)
    std::vector<std::string> unknownNames; ///< recorded saved values the graph has no node for
    /// RNG states of recomputed random ops the forward also saves (savedRngStateOps), each side.
    std::size_t ourRngStates = 0;
    std::size_t recordedRngStates = 0;

    bool identical() const
    {
        return onlyOurs.empty() && onlyRecorded.empty() && unknownNames.empty()
            && ourRngStates == recordedRngStates;
    }
};

/// Compares with the recording findRecordedPlan picks for the plan's options (and `budget` for a
/// memory-budget plan); nullopt when the file records none for them (missingRecordedPlanMessage
/// says why). Never falls back to a recording made another way.
std::optional<RecordedComparison> compareWithRecorded(const JointGraph& graph, const PartitionResult& result,
    std::optional<double> budget = std::nullopt, std::string_view budgetVariant = {});

/// "identical", or "2 only ours (a, b), 1 only PyTorch's (c), 1 recorded name not in the graph (d),
/// RNG states: 2 ours, 1 PyTorch's",
/// naming at most `listed` nodes per part.
std::string describeDifferences(
    const JointGraph& graph, const RecordedComparison& comparison, std::size_t listed = 5);

/// Why a recorded decision may differ for reasons outside the partitioner, or "": PyTorch
/// partitioned the graph after Inductor's joint-graph passes (named), which the log does not hold,
/// or the file does not say what could have changed it (RecordedPartition::provenanceCaveat).
/// `passesReplayed`: ours replayed those passes (config.inductorJointPasses); else the note says the
/// replay is off.
std::string rewrittenGraphNote(const RecordedPartition& recorded, bool passesReplayed = true);

/// Why saved SymInt placeholders may differ, or "": a differing one prints the symbol another
/// placeholder binds too. A guard made their symbols equal and the log prints sizes after that
/// replacement; 2.14 also binds the symbols from before it, which the log does not hold.
std::string replacedSymbolNote(
    const JointGraph& graph, const std::vector<NodeId>& onlyOurs, const std::vector<NodeId>& onlyRecorded);

} // namespace remat
