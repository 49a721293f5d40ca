// SPDX-License-Identifier: MIT
// remat-explorer explain: why a node is decided as it is, and what flipping it would cost.
#include "budget/runtime_text.h"
#include "cli/commands.h"
#include "cli/format.h"
#include "cli/graph_argument.h"
#include "cli/partition_options_from_args.h"
#include "cli/plan_request_from_args.h"
#include "explain/cut_neighbourhood.h"
#include "explain/explain_json.h"
#include "explain/what_if.h"
#include "graph/checkpoint_policy.h"
#include "io/graph_loader.h"

#include <cstdio>
#include <ostream>

namespace remat::cli {
namespace {

constexpr std::size_t kWidth = 12;
constexpr std::size_t kListed = 12; ///< neighbours and changed nodes listed by name before "and N more"

std::string capacityText(const SaveEdge& e)
{
    if (e.capacity == PartitionResult::kInfiniteWeight)
        return "inf";
    if (e.capacity == PartitionResult::kNoWeightEdge)
        return "no save edge";
    return std::to_string(e.capacity) + (e.onCut ? " (cut)" : "");
}

void printEdges(
    const JointGraph& graph, const std::string& label, const std::vector<SaveEdge>& edges, std::ostream& out)
{
    out << pad(label, kWidth);
    if (edges.empty())
        out << "none";
    for (std::size_t i = 0; i < edges.size() && i < kListed; ++i)
        out << (i ? ", " : "") << graph.node(edges[i].node).name << " " << capacityText(edges[i]);
    if (edges.size() > kListed)
        out << ", and " << edges.size() - kListed << " more";
    out << "\n";
}

void printCut(const JointGraph& graph, const CutNeighbourhood& c, std::ostream& out)
{
    if (!c.minCut)
        return;
    out << pad("save edge", kWidth) << capacityText(c.self) << " of cut value " << *c.cutValue << "\n"
        << pad("", kWidth) << "(capacities in " << c.weightUnit << ")\n";
    printEdges(graph, "producers", c.producers, out);
    printEdges(graph, "consumers", c.consumers, out);
}

void printKnapsack(const KnapsackPlace& k, std::ostream& out)
{
    char perByte[32];
    std::snprintf(perByte, sizeof perByte, "%.4g", k.runtimePerByte);
    out << pad("knapsack", kWidth) << "rank " << k.rank << " of " << k.itemCount << " by runtime per byte ("
        << formatRuntime(k.runtime, k.runtimeUnit) << " for " << formatBytes(k.bytes) << ", " << perByte
        << " " << k.runtimeUnit << "/byte); "
        << (k.kept ? "kept banned, not recomputed" : "allowed to be recomputed") << "\n";
}

void printWhatIf(const JointGraph& graph, const WhatIf& w, std::ostream& out)
{
    if (!w.flipTag) {
        if (w.decision == NodeDecision::Banned)
            out << pad("what if", kWidth) << "cannot flip: not even a MUST_RECOMPUTE tag lifts this ban\n";
        else
            out << pad("what if", kWidth)
                << "cannot flip: " << (w.decision == NodeDecision::Input ? "an " : "a ")
                << decisionName(w.decision) << " node takes no tag that changes it\n";
        return;
    }
    out << pad("what if", kWidth) << "tagged " << checkpointPolicyName(*w.flipTag);
    if (w.flipNode != w.node)
        out << " on " << graph.node(w.flipNode).name << ", the op it unpacks (its own tag saves nothing)";
    out << ": ";
    if (!w.feasible) {
        out << "no plan: " << w.error << "\n";
        return;
    }
    const std::string unit = w.before.runtimeUnit;
    out << (w.flipped ? "" : "its own decision does not change; ") << "saved "
        << formatBytesDelta(w.after.savedBytes - w.before.savedBytes) << ", peak "
        << formatBytesDelta(w.after.peakBytes - w.before.peakBytes) << ", recompute runtime "
        << formatRuntimeDelta(w.after.estimatedRuntime - w.before.estimatedRuntime, unit);
    if (const std::string note
        = flooredOpsNote(w.after.flooredRecomputeCount - w.before.flooredRecomputeCount, unit);
        !note.empty())
        out << " (" << note << ")";
    out << "\n";
    out << pad("", kWidth) << w.changedNodes.size()
        << (w.changedNodes.size() == 1 ? " other node changes" : " other nodes change");
    for (std::size_t i = 0; i < w.changedNodes.size() && i < kListed; ++i)
        out << (i ? ", " : ": ") << graph.node(w.changedNodes[i]).name;
    if (w.changedNodes.size() > kListed)
        out << ", and " << w.changedNodes.size() - kListed << " more";
    out << "\n";
}

void printExplanation(const JointGraph& graph, const PlanRequest& request, const WhatIf& w,
    const CutNeighbourhood& c, std::ostream& out)
{
    const Node& node = graph.node(w.node);
    out << graph.filePath() << ": node '" << node.name << "' (" << graph.opOf(w.node).target << "); "
        << describeRequest(request) << "\n";
    if (const std::string& input = node.meta.source->inputName; !input.empty())
        out << pad("input", kWidth) << input << " (the model's name)\n";
    out << pad("decision", kWidth) << decisionName(w.decision) << "\n";
    out << pad("reason", kWidth) << w.reason << "\n";
    printCut(graph, c, out);
    if (c.knapsack)
        printKnapsack(*c.knapsack, out);
    out << pad("plan", kWidth) << w.before.savedCount << " saved (" << formatBytes(w.before.savedBytes)
        << "), peak " << formatBytes(w.before.peakBytes) << ", " << w.before.recomputedCount
        << " recomputed (" << formatRuntime(w.before.estimatedRuntime, w.before.runtimeUnit) << ")\n";
    printWhatIf(graph, w, out);
}

} // namespace

int explainCommand(const std::vector<std::string>& rawArgs, std::ostream& out)
{
    std::set<std::string> valued = planRequestOptionNames();
    valued.insert(kGraphOption);
    const Arguments args(rawArgs, valued, {"--json"});
    if (args.positionals().size() != 2)
        throw UsageError {"expected a GRAPH file and a NODE name"};
    PlanRequest request = planRequestFrom(args);

    const JointGraph& graph = loadGraphArgument(args);
    const NodeId node = nodeNamed(graph, args.positionals()[1], "NODE");
    addTags(request, args, graph);
    const PlanRunner runner(graph, request.budgetOptions);
    const WhatIf w = whatIf(runner, request, node);
    const CutNeighbourhood c = cutNeighbourhood(runner, request, runner.run(request).result, node);
    if (args.flag("--json"))
        out << whatIfToJson(graph, w, c);
    else
        printExplanation(graph, request, w, c, out);
    return 0;
}

} // namespace remat::cli
