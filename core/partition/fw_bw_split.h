// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/op_categories.h"
#include "partition/partition_result.h"
#include "partition/work_graph.h"

#include <vector>

namespace remat {

/// _extract_fwd_bwd_modules: builds the forward graph (primals -> forward outputs + saved) and the
/// backward graph (saved + tangents -> gradients), drops saved values the backward never reads,
/// and fills fwNodes, bwNodes, savedValues, recomputed and savedBytes of a result.
/// What depends only on the graph is worked out once, for callers that split many saved sets.
class ForwardBackwardSplitter {
public:
    ForwardBackwardSplitter(const WorkGraph& graph, const OpCategories& ops);
    void split(std::vector<NodeId> saved, PartitionResult& result) const;

private:
    const WorkGraph& m_graph;
    std::vector<NodeId> m_primals;  ///< forward inputs
    std::vector<NodeId> m_tangents; ///< backward inputs besides the saved values
    std::vector<char> m_isTangent;
    std::vector<std::int64_t> m_bytes; ///< numel x itemsize per node
    std::vector<std::uint8_t> m_forwardAvailable;
    std::vector<char> m_impure;
    std::vector<char> m_notInForward;
    std::vector<char> m_notInBackward;
    bool m_placementRules = false;
};

/// A one-off split.
void splitForwardBackward(const WorkGraph& graph, const OpCategories& ops, std::vector<NodeId> saved,
                          PartitionResult& result);

} // namespace remat
