// SPDX-License-Identifier: MIT
#include "analysis/classification.h"
#include "analysis/node_roles.h"
#include "analysis/op_categories.h"
#include "analysis/tensor_size.h"
#include "cli/arguments.h"
#include "cli/commands.h"
#include "cli/format.h"
#include "cli/graph_argument.h"
#include "graph/error.h"
#include "io/compiled_graph_listing.h"

#include <algorithm>
#include <map>
#include <ostream>

namespace remat::cli {
namespace {

/// A TORCH_TRACE log's or TORCH_LOGS capture's compiled graphs, one line each, as `--graph` names them.
void printTraceListing(const trace::TraceListing& listing, std::ostream& out)
{
    out << listing.path << ": " << listing.format
        << (listing.torchVersion.empty() ? "" : " of PyTorch " + listing.torchVersion) << ", "
        << listing.graphs.size() << " compiled graph" << (listing.graphs.size() == 1 ? "" : "s") << "\n\n";
    std::size_t width = 7;
    for (const auto& g : listing.graphs)
        width = std::max(width, g.id.size());
    out << "  " << pad("compile", width + 2) << pad("nodes", 7) << pad("joint", 7) << "PyTorch's decision\n";
    for (const auto& g : listing.graphs) {
        out << "  " << pad(g.id, width + 2) << pad(g.problem.empty() ? std::to_string(g.nodes) : "?", 7)
            << pad(g.joint ? "yes" : "no", 7)
            << (g.partitioned ? std::string("yes") + (g.minCutInformation ? ", with min_cut_information" : "")
                           + (g.afterInductorPasses ? ", after Inductor's joint-graph passes" : "")
                              : std::string(g.inference ? "none (inference)" : "none"))
            << "\n";
        if (!g.problem.empty())
            out << "    unreadable: " << g.problem << "\n";
    }
    if (listing.format != trace::kTorchTraceLog)
        out << "\nA TORCH_LOGS capture does not say which backend compiled each graph, nor whether an "
               "activation memory budget was set: a TORCH_TRACE log does.\n";
    out << "\nopen one with --graph ID (e.g. remat-explorer partition " << listing.path << " --graph "
        << (listing.graphs.empty() ? std::string("0/0") : listing.graphs.front().id)
        << " --rules torch-2.14)\n";
}

} // namespace

int infoCommand(const std::vector<std::string>& rawArgs, std::ostream& out)
{
    const Arguments args(rawArgs, {kGraphOption}, {});
    if (args.positionals().size() != 1)
        throw UsageError {"expected exactly one GRAPH file"};
    const std::optional<trace::TraceListing> compiled
        = args.value(kGraphOption) ? std::nullopt : listCompiledGraphs(args.positionals()[0]);
    if (compiled) {
        const trace::TraceListing& listing = *compiled;
        printTraceListing(listing, out);
        // A damaged graph fails the command like any unreadable file (after the listing).
        for (const auto& g : listing.graphs) {
            if (!g.problem.empty())
                throw Error(g.problem);
        }
        return 0;
    }
    const JointGraph& graph = loadGraphArgument(args);
    const auto& source = graph.source();
    out << graph.filePath() << ": " << graph.size() << " nodes, "
        << (graph.kind() == GraphKind::Joint ? "joint graph" : "forward graph");
    if (!source.model.empty())
        out << " of " << source.model;
    if (!source.producer.empty())
        out << " (" << source.producer << ")";
    out << "\n";
    if (!source.description.empty())
        out << "  " << source.description << "\n";

    // Classes as the min-cut partitioner sees them, before DCE and CSE.
    const WorkGraph work(graph);
    const OpCategories ops(graph, RuleSet::Torch113, OpListCompiler::Nvfuser);
    int primals = 0, tangents = 0, forward = 0, backward = 0, unclaimed = 0, constants = 0;
    std::int64_t inputBytes = 0, activationBytes = 0;
    if (graph.kind() == GraphKind::Joint) {
        const NodeClasses classes = classifyNodes(work, ops);
        for (NodeId n : work.order()) {
            const Node& node = graph.node(n);
            if (node.op == NodeOp::Output)
                continue;
            if (isTangent(graph, n)) {
                ++tangents;
            } else if (node.op == NodeOp::Placeholder) {
                ++primals;
                inputBytes += valueBytes(node);
            } else if (node.op == NodeOp::GetAttr) {
                ++constants;
            } else if (classes.isRequiredFw(n)) {
                ++forward;
                activationBytes += valueBytes(node);
            } else if (classes.isRequiredBw(n)) {
                ++backward;
            } else {
                ++unclaimed;
            }
        }
        out << "\nnodes by class\n";
        out << "  " << pad("primals", 24) << primals << " (" << formatBytes(inputBytes) << ")\n";
        out << "  " << pad("tangents", 24) << tangents << "\n";
        out << "  " << pad("forward (required_fw)", 24) << forward << "\n";
        out << "  " << pad("backward (required_bw)", 24) << backward << "\n";
        out << "  " << pad("unclaimed", 24) << unclaimed << "\n";
        out << "  " << pad("constants (get_attr)", 24) << constants << "\n";
        out << "\nactivation bytes      " << formatBytes(activationBytes)
            << " (every forward value, inputs excluded: what saving everything would keep)\n";
    }

    std::map<std::string, int> byOp;
    for (const Node& node : graph.nodes()) {
        if (node.op != NodeOp::Placeholder && node.op != NodeOp::Output)
            ++byOp[graph.op(node.target).packet];
    }
    std::vector<std::pair<std::string, int>> sorted(byOp.begin(), byOp.end());
    std::stable_sort(
        sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    out << "\nnodes by op (" << sorted.size() << " ops)\n";
    for (const auto& [op, count] : sorted)
        out << "  " << pad(op, 40) << count << "\n";

    if (!graph.recorded().empty()) {
        out << "\nPyTorch's recorded decisions (" << graph.recordedTorchVersion() << ")\n";
        for (const auto& [key, recorded] : graph.recorded()) {
            out << "  " << pad(key, 22) << recorded.savedValues.size() << " saved";
            if (recorded.seconds)
                out << ", " << formatSeconds(*recorded.seconds);
            out << "\n";
        }
    }
    return 0;
}

} // namespace remat::cli
