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
std::string unnamedProvenanceNote(
    const JointGraph& graph, const PartitionResult& result, const RecordedComparison& comparison);

} // namespace remat
