// SPDX-License-Identifier: MIT
#pragma once

#include <string>

namespace remat {

class JointGraph;
struct PartitionResult;
struct RecordedComparison;

/// A sentence for a recorded decision that differs from our plan when its file does not say how it
/// was made, or "". The unnamed part is tried the other way, and named when that way saves exactly
/// what PyTorch saved (then the difference is not the partitioner's):
/// - the partitioner (RecordedPartition::partitionerNamed false: a log of a backend other than
///   Inductor): the default one for min-cut, min-cut for the default one;
/// - the backend (RecordedPartition::backendNamed false: a TORCH_LOGS capture): min-cut after
///   Inductor's joint-graph passes, replayed.
/// What the user can change to compare like with like: the other partitioner, or the replay of
/// Inductor's passes turned on. The note itself names it in words; a front end offers the control.
enum class ProvenanceRemedy { None, OtherPartitioner, ReplayInductorPasses };

struct ProvenanceNote {
    std::string text; ///< "" when there is nothing to say
    ProvenanceRemedy remedy = ProvenanceRemedy::None;
};

ProvenanceNote unnamedProvenanceNote(
    const JointGraph& graph, const PartitionResult& result, const RecordedComparison& comparison);

/// What explains a difference from the recorded decision, when known, rather than what might:
/// unnamedProvenanceNote, else rewrittenGraphNote (whose remedy is the replay when it was off).
/// Empty for an identical decision. Partitions again (unnamedProvenanceNote): off the GUI thread.
ProvenanceNote differenceExplanation(
    const JointGraph& graph, const PartitionResult& result, const RecordedComparison& comparison);

} // namespace remat
