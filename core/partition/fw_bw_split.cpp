// SPDX-License-Identifier: MIT
#include "partition/fw_bw_split.h"

#include "analysis/node_roles.h"
#include "analysis/placement.h"
#include "analysis/tensor_size.h"
#include "partition/extraction.h"

#include <algorithm>
#include <set>
#include <string>
#include <utility>

namespace remat {

bool keptWithoutUsers(const JointGraph& graph, const OpCategories& ops, OpId op)
{
    return ops.sideEffectful(op)
        || (!graph.source().partitionedInsideCompile && ops.nondeterministicSeeded(op));
}

ForwardBackwardSplitter::ForwardBackwardSplitter(
    const WorkGraph& graph, const OpCategories& ops, bool autogradOrder)
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
        m_impure[i] = keptWithoutUsers(joint, ops, joint.node(n).target);
        m_isCallFunction[i] = joint.node(n).op == NodeOp::CallFunction;
        m_isCopy[i] = joint.opOf(n).target == "aten.copy_.default";
        m_bytes[i] = valueBytes(joint.node(n));
        if (newest) {
            m_notInForward[i] = mustBeInBackward(graph, ops, n);
            m_notInBackward[i] = mustBeInForward(graph, ops, n);
        }
        if (joint.node(n).valueKind == ValueKind::Symbolic) {
            m_hasSymbolic = true;
            if (const auto& symbol = joint.node(n).symbolic->bindsSymbol; !symbol.empty())
                m_symbolBindings.try_emplace(symbol, n); // the first binding, as find_symbol_binding_fx_nodes
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

void ForwardBackwardSplitter::bindSymbols(
    std::vector<NodeId>& savedSym, const std::vector<NodeId>& saved) const
{
    // Dynamic shapes: the backward must receive a binding (a SymInt placeholder) of every symbol
    // in the sizes of what it gets; 2.14 adds the missing ones in front of the saved sym nodes.
    const JointGraph& joint = m_graph.graph();
    std::vector<NodeId> binding;
    std::vector<NodeId> derived;
    std::set<std::string> bound;
    for (NodeId n : savedSym) {
        const std::string& symbol = joint.node(n).symbolic->bindsSymbol;
        (symbol.empty() ? derived : binding).push_back(n);
        if (!symbol.empty())
            bound.insert(symbol);
    }
    std::vector<NodeId> needing = derived;
    needing.insert(needing.end(), saved.begin(), saved.end());
    needing.insert(needing.end(), m_tangents.begin(), m_tangents.end());
    for (NodeId n : needing) {
        for (const std::string& symbol : joint.node(n).symbolic->freeSymbols) { // sorted by name, as 2.14
            if (!bound.insert(symbol).second)
                continue;
            if (const auto it = m_symbolBindings.find(symbol); it != m_symbolBindings.end())
                binding.push_back(it->second);
        }
    }
    binding.insert(binding.end(), derived.begin(), derived.end());
    savedSym = std::move(binding);
}

void ForwardBackwardSplitter::split(std::vector<NodeId> saved, PartitionResult& result) const
{
    const auto isTangentInput = [&](NodeId n) { return m_isTangent[static_cast<std::size_t>(n)] != 0; };
    // Symbolic values go to the backward beside the tensors, not through save_for_backward.
    std::vector<NodeId> savedSym;
    if (m_hasSymbolic) {
        for (NodeId n : saved) {
            if (m_graph.graph().node(n).valueKind == ValueKind::Symbolic)
                savedSym.push_back(n);
        }
        std::erase_if(
            saved, [&](NodeId n) { return m_graph.graph().node(n).valueKind == ValueKind::Symbolic; });
    }
    // Buffers reused by each thread: a memory-budget sweep splits thousands of saved sets.
    thread_local std::vector<std::uint8_t> bwAvailable;
    thread_local ExtractedGraph bw;
    thread_local ExtractedGraph fw;

    // The backward first: saved values it never reads are not worth saving. Dropping them leaves
    // the rest of the backward as it was (nothing kept used them), so only the forward, whose
    // outputs they were, is extracted after the pruning.
    std::vector<NodeId> bwInputs = savedSym;
    bwInputs.insert(bwInputs.end(), saved.begin(), saved.end());
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
        std::erase_if(savedSym, isUnusedSaved);
        std::erase_if(bw.nodes, isUnusedSaved);
    }
    if (m_hasSymbolic) {
        // The bindings are backward inputs even when nothing reads them: extract again, as 2.14.
        bindSymbols(savedSym, saved);
        bwInputs = savedSym;
        bwInputs.insert(bwInputs.end(), saved.begin(), saved.end());
        bwInputs.insert(bwInputs.end(), m_tangents.begin(), m_tangents.end());
        m_backward->availability(bwInputs, bwAvailable);
        m_backward->extract(bwAvailable, bwInputs, m_graph.bwdOutputs(), bw);
    }
    if (m_autogradOrder)
        keepWhatAutogradOrderReaches(bw, bwInputs);
    std::vector<NodeId> fwOutputs(m_graph.fwdOutputs().begin(), m_graph.fwdOutputs().end());
    fwOutputs.insert(fwOutputs.end(), saved.begin(), saved.end());
    fwOutputs.insert(fwOutputs.end(), savedSym.begin(), savedSym.end());
    m_forward->extract(m_forwardAvailable, m_primals, fwOutputs, fw);

    result.savedValues = std::move(saved);
    result.savedSymNodes = std::move(savedSym);
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

void splitForwardBackward(
    const WorkGraph& graph, const OpCategories& ops, std::vector<NodeId> saved, PartitionResult& result)
{
    ForwardBackwardSplitter(graph, ops).split(std::move(saved), result);
}

} // namespace remat
