// SPDX-License-Identifier: MIT
#include "cli/recorded_line.h"

#include "cli/format.h"
#include "explain/recorded_comparison.h"
#include "explain/unnamed_provenance.h"
#include "partition/partition_result.h"

namespace remat::cli {
namespace {

/// The option that does what the note advises, in parentheses.
std::string remedyOption(ProvenanceRemedy remedy, const PartitionOptions& options)
{
    switch (remedy) {
    case ProvenanceRemedy::None:
        return {};
    case ProvenanceRemedy::OtherPartitioner:
        return options.partitioner == PartitionerKind::MinCut ? " (--partitioner default)"
                                                              : " (--partitioner min-cut)";
    case ProvenanceRemedy::ReplayInductorPasses:
        return " (--inductor-passes on)";
    }
    return {};
}

} // namespace

void printRecordedComparison(const JointGraph& graph, const PartitionResult& result, std::size_t labelWidth,
    std::ostream& out, std::optional<double> budget, std::string_view budgetVariant)
{
    const auto comparison = compareWithRecorded(graph, result, budget, budgetVariant);
    if (!comparison) {
        // Say why a file with PyTorch's decisions shows none (usually: other rules than it followed).
        if (!graph.recorded().empty() || !graph.source().unmatchedDecision.empty())
            out << pad("PyTorch", labelWidth) << "not compared: "
                << missingRecordedPlanMessage(graph, result.options, budget, budgetVariant) << "\n";
        return;
    }
    const RecordedPartition* recorded = comparison->plan.recorded;
    out << pad("PyTorch", labelWidth) << graph.recordedTorchVersion() << " recorded "
        << recorded->savedValues.size() << " saved values";
    const std::size_t syms = recorded->savedSymNodes.size();
    const int rng = recorded->savedRngStates;
    if (syms)
        out << (rng ? ", " : " and ") << syms << (syms == 1 ? " SymInt" : " SymInts");
    if (rng)
        out << " and " << rng << (rng == 1 ? " RNG state" : " RNG states");
    if (recorded->seconds)
        out << " in " << formatSeconds(*recorded->seconds);
    out << ": " << describeDifferences(graph, *comparison) << "\n";
    // What explains a difference, when known (another partitioner or backend saves PyTorch's set),
    // rather than what might.
    const ProvenanceNote provenance = differenceExplanation(graph, result, *comparison);
    const std::string explanation = provenance.text + remedyOption(provenance.remedy, result.options);
    if (!explanation.empty())
        out << pad("", labelWidth) << explanation << "\n";
    if (const std::string note = replacedSymbolNote(graph, comparison->onlyOurs, comparison->onlyRecorded);
        !note.empty())
        out << pad("", labelWidth) << note << "\n";
}

} // namespace remat::cli
