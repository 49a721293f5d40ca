// SPDX-License-Identifier: MIT
#include "explain/recorded_comparison.h"

#include "graph/node_label.h"
#include "partition/partition_result.h"
#include "partition/rng_states.h"

#include <algorithm>

namespace remat {
namespace {

/// "2 only ours (a, b)": the count, a noun, and the first `listed` names.
std::string part(
    std::size_t count, const std::string& what, const std::vector<std::string>& names, std::size_t listed)
{
    std::string text = std::to_string(count) + " " + what + " (";
    for (std::size_t i = 0; i < names.size() && i < listed; ++i)
        text += (i ? ", " : "") + names[i];
    return text + (names.size() > listed ? ", …)" : ")");
}

std::vector<std::string> namesOf(const JointGraph& graph, const std::vector<NodeId>& nodes)
{
    std::vector<std::string> names;
    names.reserve(nodes.size());
    for (NodeId n : nodes)
        names.push_back(nameWithInputName(graph.node(n)));
    return names;
}

} // namespace

std::optional<RecordedComparison> compareWithRecorded(const JointGraph& graph, const PartitionResult& result,
    std::optional<double> budget, std::string_view budgetVariant)
{
    const auto plan = findRecordedPlan(graph, result.options, budget, budgetVariant);
    if (!plan)
        return std::nullopt;
    RecordedComparison comparison {*plan, {}, {}, {}};
    std::vector<char> recorded(graph.size(), 0);
    // Saved SymInts (dynamic shapes) count as saved: PyTorch's forward returns them for the backward.
    for (const auto* names : {&plan->recorded->savedValues, &plan->recorded->savedSymNodes}) {
        for (const std::string& name : *names) {
            const NodeId n = graph.find(name);
            if (n == kNoNode)
                comparison.unknownNames.push_back(name);
            else
                recorded[static_cast<std::size_t>(n)] = 1;
        }
    }
    std::vector<char> ours(graph.size(), 0);
    for (const auto* nodes : {&result.savedValues, &result.savedSymNodes}) {
        for (NodeId n : *nodes)
            ours[static_cast<std::size_t>(n)] = 1;
    }
    comparison.ourRngStates = savedRngStateOps(graph, result).size();
    comparison.recordedRngStates = static_cast<std::size_t>(std::max(plan->recorded->savedRngStates, 0));
    for (std::size_t i = 0; i < graph.size(); ++i) {
        if (ours[i] && !recorded[i])
            comparison.onlyOurs.push_back(static_cast<NodeId>(i));
        else if (recorded[i] && !ours[i])
            comparison.onlyRecorded.push_back(static_cast<NodeId>(i));
    }
    return comparison;
}

std::string describeDifferences(
    const JointGraph& graph, const RecordedComparison& comparison, std::size_t listed)
{
    if (comparison.identical())
        return "identical";
    std::vector<std::string> parts;
    if (!comparison.onlyOurs.empty())
        parts.push_back(
            part(comparison.onlyOurs.size(), "only ours", namesOf(graph, comparison.onlyOurs), listed));
    if (!comparison.onlyRecorded.empty())
        parts.push_back(part(comparison.onlyRecorded.size(), "only PyTorch's",
            namesOf(graph, comparison.onlyRecorded), listed));
    if (!comparison.unknownNames.empty()) {
        const std::size_t count = comparison.unknownNames.size();
        parts.push_back(
            part(count, count == 1 ? "recorded name not in the graph" : "recorded names not in the graph",
                comparison.unknownNames, listed));
    }
    if (comparison.ourRngStates != comparison.recordedRngStates)
        parts.push_back("RNG states: " + std::to_string(comparison.ourRngStates) + " ours, "
            + std::to_string(comparison.recordedRngStates) + " PyTorch's");
    std::string text;
    for (std::size_t i = 0; i < parts.size(); ++i)
        text += (i ? ", " : "") + parts[i];
    return text;
}

std::string rewrittenGraphNote(const RecordedPartition& recorded, bool passesReplayed)
{
    if (recorded.graphPassesBefore.empty())
        return recorded.provenanceCaveat;
    std::string passes;
    for (const auto& pass : recorded.graphPassesBefore)
        passes += (passes.empty() ? "" : ", ") + pass;
    if (!passesReplayed)
        return "PyTorch partitioned this graph after Inductor's joint-graph passes (" + passes
            + "), which the log does not record, and their replay is off here: replay those that remove "
              "no-ops (remove_noop_ops, pointless views and permutes) to compare like with like";
    return "PyTorch partitioned this graph after Inductor's joint-graph passes (" + passes
        + "), which the log does not record. Ours replays those that remove no-ops (remove_noop_ops, "
          "pointless views and permutes) but not constant folding nor the pattern rewrites: a difference "
          "on such nodes comes from them, not from the partitioner. Trace with backend=\"aot_eager\" to "
          "compare like with like";
}

std::string replacedSymbolNote(
    const JointGraph& graph, const std::vector<NodeId>& onlyOurs, const std::vector<NodeId>& onlyRecorded)
{
    std::vector<NodeId> differing = onlyOurs;
    differing.insert(differing.end(), onlyRecorded.begin(), onlyRecorded.end());
    std::vector<std::string> pairs;
    for (NodeId n : differing) {
        const std::string& symbol = graph.node(n).symbolic->bindsSymbol;
        if (symbol.empty() || graph.node(n).op != NodeOp::Placeholder)
            continue;
        std::string others;
        for (std::size_t i = 0; i < graph.size(); ++i) {
            const auto m = static_cast<NodeId>(i);
            if (m != n && graph.node(m).op == NodeOp::Placeholder
                && graph.node(m).symbolic->bindsSymbol == symbol)
                others += " and " + graph.node(m).name;
        }
        if (!others.empty())
            pairs.push_back(graph.node(n).name + others + " print as Sym(" + symbol + ")");
    }
    if (pairs.empty())
        return {};
    std::string text;
    for (const auto& pair : pairs)
        text += (text.empty() ? "" : "; ") + pair;
    return text
        + ": a guard made their symbols equal, and the log prints sizes after that replacement. PyTorch "
          "2.14 also binds the symbols that saved values had before it, which the log does not hold, so "
          "it can save such a placeholder where a reading of the printed sizes cannot tell it is needed";
}

} // namespace remat
