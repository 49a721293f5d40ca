// SPDX-License-Identifier: MIT
#include "partition/fw_bw_split.h"

#include "analysis/node_roles.h"
#include "analysis/placement.h"
#include "analysis/tensor_size.h"
#include "partition/extraction.h"

#include <algorithm>

namespace remat {

ForwardBackwardSplitter::ForwardBackwardSplitter(const WorkGraph& graph, const OpCategories& ops)
    : m_graph(graph)
{
    const JointGraph& joint = graph.graph();
    const bool newest = ops.rules() == RuleSet::Newest;
    m_impure.assign(joint.size(), 0);
    m_isTangent.assign(joint.size(), 0);
    m_bytes.assign(joint.size(), 0);
    if (newest) {
        m_placementRules = true;
        m_notInForward.assign(joint.size(), 0);
        m_notInBackward.assign(joint.size(), 0);
    }
    for (NodeId n : graph.order()) {
        const auto i = static_cast<std::size_t>(n);
        m_impure[i] = ops.sideEffectful(joint.node(n).target);
        m_bytes[i] = valueBytes(joint.node(n));
        if (newest) {
            m_notInForward[i] = mustBeInBackward(graph, ops, n);
            m_notInBackward[i] = mustBeInForward(graph, ops, n);
        }
        if (newest ? (isPrimalNewest(joint, n) || isFwdSeedOffset(joint, n)) : isPrimal113(joint, n))
            m_primals.push_back(n);
        else if (isTangent(joint, n) || (newest && isBwdSeedOffset(joint, n))) {
            m_tangents.push_back(n);
            m_isTangent[i] = 1;
        }
    }
    // What the forward can compute depends only on the primals: the same for every saved set.
    const ExtractionRules forwardRules {&m_impure, m_placementRules ? &m_notInForward : nullptr, "forward"};
    m_forwardAvailable = availability(graph, m_primals, forwardRules);
}

void ForwardBackwardSplitter::split(std::vector<NodeId> saved, PartitionResult& result) const
{
    const JointGraph& joint = m_graph.graph();
    ExtractionRules forwardRules {&m_impure, m_placementRules ? &m_notInForward : nullptr, "forward"};
    ExtractionRules backwardRules {&m_impure, m_placementRules ? &m_notInBackward : nullptr, "backward"};
    const auto isTangentInput = [&](NodeId n) { return m_isTangent[static_cast<std::size_t>(n)] != 0; };

    // The backward first: saved values it never reads are not worth saving. Dropping them leaves
    // the rest of the backward as it was (nothing kept used them), so only the forward, whose
    // outputs they were, is extracted after the pruning.
    std::vector<NodeId> bwInputs = saved;
    bwInputs.insert(bwInputs.end(), m_tangents.begin(), m_tangents.end());
    ExtractedGraph bw = extractSubgraph(m_graph, bwInputs, m_graph.bwdOutputs(), backwardRules);
    if (!bw.unusedInputs.empty()) {
        std::vector<char> unused(joint.size(), 0);
        for (NodeId n : bw.unusedInputs)
            unused[static_cast<std::size_t>(n)] = 1;
        const auto isUnusedSaved = [&](NodeId n) {
            return unused[static_cast<std::size_t>(n)] != 0 && !isTangentInput(n);
        };
        std::erase_if(saved, isUnusedSaved);
        std::erase_if(bw.nodes, isUnusedSaved);
        for (NodeId n : bw.unusedInputs) {
            if (!isTangentInput(n))
                bw.contains[static_cast<std::size_t>(n)] = 0;
        }
    }
    std::vector<NodeId> fwOutputs(m_graph.fwdOutputs().begin(), m_graph.fwdOutputs().end());
    fwOutputs.insert(fwOutputs.end(), saved.begin(), saved.end());
    const ExtractedGraph fw = extractAvailable(m_graph, m_forwardAvailable, m_primals, fwOutputs, forwardRules);

    result.savedValues = std::move(saved);
    result.fwNodes = std::move(fw.nodes);
    result.bwNodes = std::move(bw.nodes);
    result.recomputed.clear();
    result.savedBytes = 0;
    std::vector<char> isSaved(joint.size(), 0);
    for (NodeId n : result.savedValues) {
        isSaved[static_cast<std::size_t>(n)] = 1;
        result.savedBytes += m_bytes[static_cast<std::size_t>(n)];
    }
    for (NodeId n : result.bwNodes) {
        if (joint.node(n).op == NodeOp::CallFunction && fw.has(n) && !isSaved[static_cast<std::size_t>(n)])
            result.recomputed.push_back(n);
    }
}

void splitForwardBackward(const WorkGraph& graph, const OpCategories& ops, std::vector<NodeId> saved,
                          PartitionResult& result)
{
    ForwardBackwardSplitter(graph, ops).split(std::move(saved), result);
}

} // namespace remat
