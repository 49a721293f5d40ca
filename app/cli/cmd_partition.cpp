// SPDX-License-Identifier: MIT
#include "cli/arguments.h"
#include "cli/commands.h"
#include "cli/format.h"
#include "cli/graph_argument.h"
#include "cli/partition_options_from_args.h"
#include "cli/recorded_line.h"
#include "graph/checkpoint_policy.h"
#include "install/data_dir.h"
#include "io/file_text.h"
#include "io/graph_loader.h"
#include "io/plan_json.h"
#include "io/plan_script.h"
#include "partition/partitioner.h"
#include "partition/rng_states.h"

#include <chrono>
#include <map>
#include <ostream>

namespace remat::cli {
namespace {

void printSummary(
    const JointGraph& graph, const PartitionResult& result, double loadSeconds, std::ostream& out)
{
    const auto& o = result.options;
    out << graph.filePath() << ": " << graph.size() << " nodes; " << partitionerName(o.partitioner) << ", "
        << ruleSetName(o.rules) << " rules";
    if (o.rules == RuleSet::Torch113 && o.partitioner == PartitionerKind::MinCut)
        out << ", " << compilerName(o.compiler) << " op list";
    out << "\n";
    for (const auto& [node, policy] : o.tags)
        out << pad("tag", 12) << graph.node(node).name << " = " << checkpointPolicyName(policy) << "\n";
    out << pad("saved", 12) << result.savedValues.size() << " values, " << formatBytes(result.savedBytes)
        << savedSymIntsText(result.savedSymNodes.size()) << "\n";
    if (o.config.activationOffloading) {
        out << pad("offloaded", 12) << result.offloaded.size() << " values, "
            << formatBytes(result.offloadedBytes) << " (activation offloading)";
        std::string separator = ": ";
        for (NodeId n : result.offloaded) {
            out << separator << graph.node(n).name;
            separator = ", ";
        }
        out << "\n";
        for (const auto& r : result.offloadRefused)
            out << pad("not offl.", 12) << graph.node(r.node).name << ": " << r.reason << "\n";
    }
    out << pad("recomputed", 12) << result.recomputed.size() << " nodes in the backward\n";
    out << rngStatesLine(graph, savedRngStateOps(graph, result), 12);
    std::map<std::string, int> byReason;
    for (const auto& b : result.banned)
        ++byReason[b.reason];
    out << pad("banned", 12) << result.banned.size() << " nodes";
    std::string separator = " (";
    for (const auto& [reason, count] : byReason) {
        out << separator << count << " " << reason;
        separator = "; ";
    }
    out << (byReason.empty() ? "" : ")") << "\n";
    out << pad("graphs", 12) << "forward " << result.fwNodes.size() << " nodes, backward "
        << result.bwNodes.size() << " nodes\n";
    if (result.cutValue)
        out << pad("cut value", 12) << *result.cutValue << "\n";
    for (const auto& note : result.notes)
        out << pad("note", 12) << note << "\n";
    out << pad("time", 12) << "load " << formatSeconds(loadSeconds) << ", partition "
        << formatSeconds(result.seconds) << "\n";
    printRecordedComparison(graph, result, 12, out);
}

} // namespace

int partitionCommand(const std::vector<std::string>& rawArgs, std::ostream& out)
{
    std::set<std::string> valued = partitionOptionNames();
    valued.insert({"-o", "--script", "--tools", kGraphOption});
    std::set<std::string> flags = partitionFlagNames();
    flags.insert("--json");
    const Arguments args(rawArgs, valued, flags);
    if (args.positionals().size() != 1)
        throw UsageError {"expected exactly one GRAPH file"};
    if (args.value("--script") && !args.value("-o"))
        throw UsageError {"--script runs a saved plan: give -o PLAN.json too"};
    PartitionOptions options = partitionOptionsFrom(args);

    const auto start = std::chrono::steady_clock::now();
    const JointGraph& graph = loadGraphArgument(args);
    options.tags = tagsFrom(args, graph);
    applyRulesOfRecording(options, args, graph);
    const double loadSeconds
        = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const PartitionResult result = partitionGraph(graph, options);

    if (const auto path = args.value("-o"))
        writeFileAtomically(*path, planToJson(graph, result));
    if (const auto script = args.value("--script")) {
        const std::string tools = args.value("--tools").value_or(dataFile("python").string());
        writeFileAtomically(*script, planRunnerScript(graph, result, *args.value("-o"), tools));
    }
    if (args.flag("--json"))
        out << planToJson(graph, result);
    else
        printSummary(graph, result, loadSeconds, out);
    return 0;
}

} // namespace remat::cli
