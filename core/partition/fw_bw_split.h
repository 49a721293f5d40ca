// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/op_categories.h"
#include "partition/extraction.h"
#include "partition/partition_result.h"
#include "partition/work_graph.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace remat {

/// What fx's eliminate_dead_code keeps without users: side-effectful ops, and under torch 2.x
/// random ones too, unless PyTorch partitioned the graph inside torch.compile, whose
/// TracingContext makes DCE treat them as pure (GraphSource::partitionedInsideCompile).
bool keptWithoutUsers(const JointGraph& graph, const OpCategories& ops, OpId op);

/// _extract_fwd_bwd_modules: builds the forward graph (primals -> forward outputs + saved) and the
/// backward graph (saved + tangents -> gradients), drops saved values the backward never reads,
/// and fills fwNodes, bwNodes, savedValues, recomputed and savedBytes of a result.
/// What depends only on the graph is worked out once, for callers that split many saved sets.
class ForwardBackwardSplitter {
public:
    /// `autogradOrder`: torch 2.x's min-cut rebuilds the backward in autograd's order afterwards.
    ForwardBackwardSplitter(const WorkGraph& graph, const OpCategories& ops, bool autogradOrder = false);
    void split(std::vector<NodeId> saved, PartitionResult& result) const;

private:
    void keepWhatAutogradOrderReaches(ExtractedGraph& bw, std::span<const NodeId> bwInputs) const;
    void bindSymbols(std::vector<NodeId>& savedSym, const std::vector<NodeId>& saved) const;

    const WorkGraph& m_graph;
    std::vector<NodeId> m_primals; ///< forward inputs
    std::vector<NodeId> m_tangents; ///< backward inputs besides the saved values
    std::vector<char> m_isTangent;
    std::vector<char> m_isCallFunction;
    std::vector<char> m_isCopy; ///< aten.copy_ (the autograd reordering keeps these early)
    std::vector<std::int64_t> m_bytes; ///< numel x itemsize per node
    std::vector<std::uint8_t> m_forwardAvailable;
    std::vector<char> m_impure;
    std::vector<char> m_notInForward;
    std::vector<char> m_notInBackward;
    bool m_placementRules = false;
    bool m_autogradOrder = false;
    bool m_hasSymbolic = false; ///< dynamic shapes: saved sym nodes and symbol bindings
    std::map<std::string, NodeId> m_symbolBindings; ///< symbol -> its first binding SymInt
    std::unique_ptr<Extractor> m_forward;
    std::unique_ptr<Extractor> m_backward;
};

/// A one-off split.
void splitForwardBackward(
    const WorkGraph& graph, const OpCategories& ops, std::vector<NodeId> saved, PartitionResult& result);

} // namespace remat
