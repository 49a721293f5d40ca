// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/op_categories.h"
#include "partition/work_graph.h"

namespace remat {

// Placement constraints of the newest rules (pytorch-partitioner-reference.md, section 2.2).

inline bool mustBeInBackward(const WorkGraph& graph, const OpCategories& ops, NodeId n)
{
    const Node& node = graph.node(n);
    const auto tag = node.meta.partitionerTag;
    return tag == PartitionerTag::MustBeInBackward
        || (tag == PartitionerTag::IsBackward && ops.mutableSchema(node.target));
}

inline bool mustBeInForward(const WorkGraph& graph, const OpCategories& ops, NodeId n)
{
    const Node& node = graph.node(n);
    const auto tag = node.meta.partitionerTag;
    return tag == PartitionerTag::MustBeInForward
        || (ops.mutableSchema(node.target) && tag != PartitionerTag::IsBackward
            && tag != PartitionerTag::MustBeInBackward);
}

} // namespace remat
