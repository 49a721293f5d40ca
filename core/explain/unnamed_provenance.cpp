// SPDX-License-Identifier: MIT
#include "explain/unnamed_provenance.h"

#include "explain/recorded_comparison.h"
#include "graph/error.h"
#include "partition/partitioner.h"

namespace remat {
namespace {

/// Whether partitioning with `options` saves exactly the recorded set.
bool savesTheRecordedSet(const JointGraph& graph, const PartitionOptions& options)
{
    try {
        const auto comparison = compareWithRecorded(graph, partitionGraph(graph, options));
        return comparison && comparison->identical();
    } catch (const Error&) {
        return false; // refused: it cannot have made the decision either
    }
}

} // namespace

ProvenanceNote unnamedProvenanceNote(
    const JointGraph& graph, const PartitionResult& result, const RecordedComparison& comparison)
{
    const RecordedPartition& recorded = *comparison.plan.recorded;
    if (comparison.identical() || (recorded.partitionerNamed && recorded.backendNamed))
        return {};
    const std::string saved = std::to_string(recorded.savedValues.size());
    if (!recorded.partitionerNamed) {
        PartitionOptions other = result.options;
        const bool toDefault = other.partitioner == PartitionerKind::MinCut;
        other.partitioner = toDefault ? PartitionerKind::Default : PartitionerKind::MinCut;
        if (savesTheRecordedSet(graph, other)) {
            return {"The log does not name the partitioner that made PyTorch's decision, and our "
                    + std::string(toDefault ? "default partitioner" : "min-cut") + " saves exactly PyTorch's "
                    + saved + " values: the backend partitioned with "
                    + (toDefault ? "default_partition, so choose the default partitioner"
                                 : "min_cut_rematerialization_partition, so choose min-cut")
                    + " to compare like with like",
                ProvenanceRemedy::OtherPartitioner};
        }
    }
    if (!recorded.backendNamed && result.options.rules == RuleSet::Newest
        && result.options.partitioner == PartitionerKind::MinCut
        && !result.options.config.inductorJointPasses) {
        PartitionOptions inductor = result.options;
        inductor.config.inductorJointPasses = true;
        if (savesTheRecordedSet(graph, inductor))
            return {"The capture does not name the backend, and with Inductor's joint-graph passes replayed "
                    "(remove_noop_ops, pointless views and permutes) our min-cut saves exactly PyTorch's "
                    + saved
                    + " values: torch.compile's default backend, Inductor, rewrote the graph before "
                      "partitioning it, so replay those passes to compare like with like",
                ProvenanceRemedy::ReplayInductorPasses};
    }
    return {};
}

ProvenanceNote differenceExplanation(
    const JointGraph& graph, const PartitionResult& result, const RecordedComparison& comparison)
{
    if (comparison.identical())
        return {};
    if (ProvenanceNote note = unnamedProvenanceNote(graph, result, comparison); !note.text.empty())
        return note;
    const RecordedPartition& recorded = *comparison.plan.recorded;
    const bool replayed = result.options.config.inductorJointPasses;
    const bool canReplay = result.options.rules == RuleSet::Newest && !recorded.graphPassesBefore.empty();
    return {rewrittenGraphNote(recorded, replayed || !canReplay),
        replayed || !canReplay ? ProvenanceRemedy::None : ProvenanceRemedy::ReplayInductorPasses};
}

} // namespace remat
