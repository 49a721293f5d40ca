// SPDX-License-Identifier: MIT
#include "cli/arguments.h"
#include "cli/commands.h"
#include "cli/format.h"
#include "cli/partition_options_from_args.h"
#include "explain/recorded_plan.h"
#include "graph/checkpoint_policy.h"
#include "install/data_dir.h"
#include "io/file_text.h"
#include "io/graph_loader.h"
#include "io/plan_json.h"
#include "io/plan_script.h"
#include "partition/partitioner.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <ostream>

namespace remat::cli {
namespace {

void printComparison(const JointGraph& graph, const PartitionResult& result, std::ostream& out)
{
    const auto plan = findRecordedPlan(graph, result.options);
    if (!plan)
        return;
    const RecordedPartition* recorded = plan->recorded;
    std::vector<std::string> ours;
    for (NodeId n : result.savedValues)
        ours.push_back(graph.node(n).name);
    std::vector<std::string> theirs = recorded->savedValues;
    std::sort(ours.begin(), ours.end());
    std::sort(theirs.begin(), theirs.end());
    std::vector<std::string> onlyOurs;
    std::vector<std::string> onlyTheirs;
    std::set_difference(ours.begin(), ours.end(), theirs.begin(), theirs.end(), std::back_inserter(onlyOurs));
    std::set_difference(theirs.begin(), theirs.end(), ours.begin(), ours.end(), std::back_inserter(onlyTheirs));
    out << pad("PyTorch", 12) << graph.recordedTorchVersion() << " recorded " << recorded->savedValues.size()
        << " saved values";
    if (recorded->seconds)
        out << " in " << formatSeconds(*recorded->seconds);
    if (onlyOurs.empty() && onlyTheirs.empty())
        out << ": identical\n";
    else
        out << ": " << onlyOurs.size() << " only ours, " << onlyTheirs.size() << " only PyTorch's\n";
}

void printSummary(const JointGraph& graph, const PartitionResult& result, double loadSeconds, std::ostream& out)
{
    const auto& o = result.options;
    out << graph.filePath() << ": " << graph.size() << " nodes; " << partitionerName(o.partitioner) << ", "
        << ruleSetName(o.rules) << " rules";
    if (o.rules == RuleSet::Torch113 && o.partitioner == PartitionerKind::MinCut)
        out << ", " << compilerName(o.compiler) << " op list";
    out << "\n";
    for (const auto& [node, policy] : o.tags)
        out << pad("tag", 12) << graph.node(node).name << " = " << checkpointPolicyName(policy) << "\n";
    out << pad("saved", 12) << result.savedValues.size() << " values, " << formatBytes(result.savedBytes) << "\n";
    out << pad("recomputed", 12) << result.recomputed.size() << " nodes in the backward\n";
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
    out << pad("graphs", 12) << "forward " << result.fwNodes.size() << " nodes, backward " << result.bwNodes.size()
        << " nodes\n";
    if (result.cutValue)
        out << pad("cut value", 12) << *result.cutValue << "\n";
    for (const auto& note : result.notes)
        out << pad("note", 12) << note << "\n";
    out << pad("time", 12) << "load " << formatSeconds(loadSeconds) << ", partition " << formatSeconds(result.seconds)
        << "\n";
    printComparison(graph, result, out);
}

} // namespace

int partitionCommand(const std::vector<std::string>& rawArgs, std::ostream& out)
{
    std::set<std::string> valued = partitionOptionNames();
    valued.insert({"-o", "--script", "--tools"});
    const Arguments args(rawArgs, valued, {"--json"});
    if (args.positionals().size() != 1)
        throw UsageError {"expected exactly one GRAPH file"};
    if (args.value("--script") && !args.value("-o"))
        throw UsageError {"--script runs a saved plan: give -o PLAN.json too"};
    PartitionOptions options = partitionOptionsFrom(args);

    const auto start = std::chrono::steady_clock::now();
    const JointGraph graph = loadGraphFile(args.positionals()[0]);
    options.tags = tagsFrom(args, graph);
    const double loadSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
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
