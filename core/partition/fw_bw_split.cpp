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
    m_isCallFunction.assign(joint.size(), 0);
    m_isCopy.assign(joint.size(), 0);
    m_bytes.assign(joint.size(), 0);
    if (newest) {
        m_placementRules = true;
        m_notInForward.assign(joint.size(), 0);
        m_notInBackward.assign(joint.size(), 0);
    }
    for (NodeId n : graph.order()) {
        const auto i = static_cast<std::size_t>(n);
        m_impure[i] = keptWithoutUsers(ops, config, joint.node(n).target);
        m_isCallFunction[i] = joint.node(n).op == NodeOp::CallFunction;
        m_isCopy[i] = joint.opOf(n).target == "aten.copy_.default";
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
    const auto rules = [&](const std::vector<char>& forbidden, std::string_view name) {
        return ExtractionRules {&m_impure, m_placementRules ? &forbidden : nullptr, name};
    };
    m_forward = std::make_unique<Extractor>(graph, rules(m_notInForward, "forward"));
    m_backward = std::make_unique<Extractor>(graph, rules(m_notInBackward, "backward"));
    m_forward->availability(m_primals, m_forwardAvailable);
}

void ForwardBackwardSplitter::split(std::vector<NodeId> saved, PartitionResult& result) const
{
    const auto isTangentInput = [&](NodeId n) { return m_isTangent[static_cast<std::size_t>(n)] != 0; };
    // Buffers reused by each thread: a memory-budget sweep splits thousands of saved sets.
    thread_local std::vector<std::uint8_t> bwAvailable;
    thread_local ExtractedGraph bw;
    thread_local ExtractedGraph fw;

    // The backward first: saved values it never reads are not worth saving. Dropping them leaves
    // the rest of the backward as it was (nothing kept used them), so only the forward, whose
    // outputs they were, is extracted after the pruning.
    std::vector<NodeId> bwInputs = saved;
    bwInputs.insert(bwInputs.end(), m_tangents.begin(), m_tangents.end());
    m_backward->availability(bwInputs, bwAvailable);
    m_backward->extract(bwAvailable, bwInputs, m_graph.bwdOutputs(), bw);
    if (!bw.unusedInputs.empty()) {
        for (NodeId n : bw.unusedInputs) {
            if (!isTangentInput(n))
                bw.contains[static_cast<std::size_t>(n)] = 0;
        }
        // Unused saved values are now the saved values the backward does not contain.
        const auto isUnusedSaved = [&](NodeId n) { return !bw.has(n) && !isTangentInput(n); };
        std::erase_if(saved, isUnusedSaved);
        std::erase_if(bw.nodes, isUnusedSaved);
    }
    if (m_autogradOrder)
        keepWhatAutogradOrderReaches(bw, bwInputs);
    std::vector<NodeId> fwOutputs(m_graph.fwdOutputs().begin(), m_graph.fwdOutputs().end());
    fwOutputs.insert(fwOutputs.end(), saved.begin(), saved.end());
    m_forward->extract(m_forwardAvailable, m_primals, fwOutputs, fw);

    result.savedValues = std::move(saved);
    result.fwNodes = fw.nodes;
    result.bwNodes = bw.nodes;
    result.recomputed.clear();
    result.savedBytes = 0;
    for (NodeId n : result.savedValues)
        result.savedBytes += m_bytes[static_cast<std::size_t>(n)];
    // The backward's inputs are the saved values and the tangents (placeholders, not call_function).
    for (NodeId n : result.bwNodes) {
        const auto i = static_cast<std::size_t>(n);
        if (m_isCallFunction[i] && fw.has(n) && !(bwAvailable[i] & kInputNode))
            result.recomputed.push_back(n);
    }
}

void ForwardBackwardSplitter::keepWhatAutogradOrderReaches(
    ExtractedGraph& bw, std::span<const NodeId> bwInputs) const
{
    // reordering_to_mimic_autograd_engine copies the inputs, then from the first user of a tangent
    // on every node with what it needs (before it only input copies): impure nodes that the
    // extraction copied from the forward and kept without users (dropout) fall away.
    thread_local std::vector<char> isBwInput;
    isBwInput.assign(m_graph.graph().size(), 0);
    for (NodeId n : bwInputs)
        isBwInput[static_cast<std::size_t>(n)] = 1;
    const auto isInput = [&](NodeId n) { return isBwInput[static_cast<std::size_t>(n)] != 0; };
    std::size_t first = bw.nodes.size();
    for (std::size_t k = 0; k < bw.nodes.size() && first == bw.nodes.size(); ++k) {
        if (isInput(bw.nodes[k]))
            continue;
        for (NodeId input : m_graph.inputs(bw.nodes[k])) {
            if (m_isTangent[static_cast<std::size_t>(input)])
                first = k;
        }
    }
    if (first == bw.nodes.size())
        return;
    // What the kept nodes need, in one sweep from the end: the inputs come first in bw.nodes, then
    // the computed nodes in graph order, so a node's users are all seen before it is.
    thread_local std::vector<char> keep;
    keep.assign(m_graph.graph().size(), 0);
    for (std::size_t k = 0; k < bw.nodes.size(); ++k) {
        const NodeId n = bw.nodes[k];
        if (isInput(n) || k >= first || m_isCopy[static_cast<std::size_t>(n)])
            keep[static_cast<std::size_t>(n)] = 1;
    }
    for (NodeId out : m_graph.bwdOutputs()) {
        if (out != kNoNode)
            keep[static_cast<std::size_t>(out)] = 1;
    }
    for (auto it = bw.nodes.rbegin(); it != bw.nodes.rend(); ++it) {
        if (keep[static_cast<std::size_t>(*it)] && !isInput(*it)) {
            for (NodeId input : m_graph.inputs(*it))
                keep[static_cast<std::size_t>(input)] = 1;
        }
    }
    for (NodeId n : bw.nodes) {
        if (!keep[static_cast<std::size_t>(n)])
            bw.contains[static_cast<std::size_t>(n)] = 0;
    }
    std::erase_if(bw.nodes, [&](NodeId n) { return keep[static_cast<std::size_t>(n)] == 0; });
}

void splitForwardBackward(const WorkGraph& graph, const OpCategories& ops, std::vector<NodeId> saved,
                          PartitionResult& result)
{
    ForwardBackwardSplitter(graph, ops, result.options.config).split(std::move(saved), result);
}

} // namespace remat
