// SPDX-License-Identifier: MIT
#include "partition/fw_bw_split.h"

#include "analysis/node_roles.h"
#include "analysis/placement.h"
#include "analysis/tensor_size.h"
#include "partition/extraction.h"

#include <algorithm>
#include <utility>

namespace remat {

bool keptWithoutUsers(const OpCategories& ops, const PartitionerConfig& config, OpId op)
{
    return ops.sideEffectful(op) || (config.keepDeadRandomOps && ops.nondeterministicSeeded(op));
}

ForwardBackwardSplitter::ForwardBackwardSplitter(
    const WorkGraph& graph, const OpCategories& ops, const PartitionerConfig& config, bool autogradOrder)
    : m_graph(graph)
    , m_autogradOrder(autogradOrder)
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
        m_impure[i] = keptWithoutUsers(ops, config, joint.node(n).target);
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
    if (m_autogradOrder)
        keepWhatAutogradOrderReaches(bw, bwInputs);
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

void ForwardBackwardSplitter::keepWhatAutogradOrderReaches(
    ExtractedGraph& bw, std::span<const NodeId> bwInputs) const
{
    // reordering_to_mimic_autograd_engine copies the inputs, then from the first user of a tangent
    // on every node with what it needs (before it only input copies): impure nodes that the
    // extraction copied from the forward and kept without users (dropout) fall away.
    const JointGraph& joint = m_graph.graph();
    std::vector<char> isBwInput(joint.size(), 0);
    for (NodeId n : bwInputs)
        isBwInput[static_cast<std::size_t>(n)] = 1;
    const auto isInput = [&](NodeId n) { return isBwInput[static_cast<std::size_t>(n)] != 0; };
    auto first = bw.nodes.end();
    for (auto it = bw.nodes.begin(); it != bw.nodes.end() && first == bw.nodes.end(); ++it) {
        if (isInput(*it))
            continue;
        for (NodeId input : m_graph.inputs(*it)) {
            if (m_isTangent[static_cast<std::size_t>(input)])
                first = it;
        }
    }
    if (first == bw.nodes.end())
        return;
    std::vector<char> keep(joint.size(), 0);
    std::vector<NodeId> stack;
    const auto insertWithInputs = [&](NodeId n) {
        stack.push_back(n);
        while (!stack.empty()) {
            const NodeId m = stack.back();
            stack.pop_back();
            if (std::exchange(keep[static_cast<std::size_t>(m)], 1) == 0 && !isInput(m)) {
                for (NodeId input : m_graph.inputs(m))
                    stack.push_back(input);
            }
        }
    };
    for (auto it = bw.nodes.begin(); it != bw.nodes.end(); ++it) {
        if (isInput(*it) || it >= first || joint.opOf(*it).target == "aten.copy_.default")
            insertWithInputs(*it);
    }
    for (NodeId out : m_graph.bwdOutputs()) {
        if (out != kNoNode)
            insertWithInputs(out);
    }
    std::erase_if(bw.nodes, [&](NodeId n) { return keep[static_cast<std::size_t>(n)] == 0; });
    for (std::size_t i = 0; i < keep.size(); ++i)
        bw.contains[i] = bw.contains[i] && keep[i];
}

void splitForwardBackward(const WorkGraph& graph, const OpCategories& ops, std::vector<NodeId> saved,
                          PartitionResult& result)
{
    ForwardBackwardSplitter(graph, ops, result.options.config).split(std::move(saved), result);
}

} // namespace remat
