// SPDX-License-Identifier: MIT
#pragma once

#include <string>

namespace remat {

class JointGraph;
struct PartitionResult;
struct RecordedComparison;

/// A sentence for a recorded decision whose file does not name the partitioner that made it
/// (RecordedPartition::partitionerNamed false: a log of a backend other than Inductor), or "".
/// When our plan differs from it, runs the other partitioner (the default one for min-cut, min-cut
/// for the default one); when that one saves exactly what PyTorch saved, says so: the backend
/// partitioned with it, and the difference is not the partitioner's.
std::string unnamedPartitionerNote(
    const JointGraph& graph, const PartitionResult& result, const RecordedComparison& comparison);

} // namespace remat
