// SPDX-License-Identifier: MIT
#include "explain/unnamed_partitioner.h"

#include "explain/recorded_comparison.h"
#include "graph/error.h"
#include "partition/partitioner.h"

namespace remat {

std::string unnamedPartitionerNote(
    const JointGraph& graph, const PartitionResult& result, const RecordedComparison& comparison)
{
    if (comparison.plan.recorded->partitionerNamed || comparison.identical())
        return {};
    const std::string unnamed = "The log does not name the partitioner that made PyTorch's decision";
    PartitionOptions other = result.options;
    other.partitioner
        = other.partitioner == PartitionerKind::MinCut ? PartitionerKind::Default : PartitionerKind::MinCut;
    std::optional<RecordedComparison> otherComparison;
    try {
        otherComparison = compareWithRecorded(graph, partitionGraph(graph, other));
    } catch (const Error&) {
        // The other partitioner refuses the graph: it cannot have made the decision either.
    }
    if (!otherComparison || !otherComparison->identical())
        return {}; // min-cut, as torch.compile's backends use: the difference has another cause
    const std::size_t saved = comparison.plan.recorded->savedValues.size();
    if (other.partitioner == PartitionerKind::Default)
        return unnamed + ", and our default partitioner saves exactly its " + std::to_string(saved)
            + " values: the backend partitioned with default_partition, so choose the default "
              "partitioner to compare like with like";
    return unnamed + ", and our min-cut saves exactly its " + std::to_string(saved)
        + " values: the backend partitioned with min_cut_rematerialization_partition, so choose min-cut "
          "to compare like with like";
}

} // namespace remat
