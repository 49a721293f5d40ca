// SPDX-License-Identifier: MIT
// remat-explorer pareto: plans for every budget from 0 to 1, with their real peak memory.
#include "budget/budget_io.h"
#include "budget/pareto.h"
#include "cli/budget_args.h"
#include "cli/commands.h"
#include "cli/format.h"
#include "cli/graph_argument.h"
#include "cli/partition_options_from_args.h"
#include "cli/plot_writers.h"
#include "explain/recorded_budget_points.h"
#include "io/file_text.h"
#include "io/graph_loader.h"
#include "io/json_number.h"

#include <cstdio>
#include <ostream>

namespace remat::cli {
namespace {

void printTable(const JointGraph& graph, const ParetoResult& result, std::ostream& out)
{
    out << graph.filePath() << ": " << result.points.size() << " plans from " << result.budgetsEvaluated
        << " budgets in " << formatSeconds(result.seconds) << (result.cancelled ? " (cancelled)" : "")
        << "\n\n";
    out << pad("budget", 20) << pad("activations", 13) << pad("runtime (" + result.runtimeUnit + ")", 17)
        << pad("peak", 12) << pad("saved", 7) << pad("recomp", 8) << "frontier\n";
    for (const auto& p : result.points) {
        char budget[48];
        if (p.budget == p.budgetMax)
            std::snprintf(budget, sizeof budget, "%.6f", p.budget);
        else
            std::snprintf(budget, sizeof budget, "%.6f-%.6f", p.budget, p.budgetMax);
        char runtime[32];
        std::snprintf(runtime, sizeof runtime, "%.6g", p.metrics.estimatedRuntime);
        out << pad(budget, 20) << pad(formatBytes(p.metrics.activationBytes), 13) << pad(runtime, 17)
            << pad(p.metrics.peakBytes ? formatBytes(*p.metrics.peakBytes) : "-", 12)
            << pad(std::to_string(p.savedCount), 7) << pad(std::to_string(p.recomputedCount), 8)
            << (p.onFrontier ? "yes" : "dominated") << "\n";
    }
}

/// PyTorch's own plans at the budgets the file records, beside ours.
void printRecorded(const JointGraph& graph, const RecordedBudgetPoints& recorded, std::ostream& out)
{
    if (recorded.points.empty() && recorded.unusable.empty())
        return;
    const std::string torch = graph.recordedTorchVersion();
    out << "\nPyTorch " << torch << "'s recorded plans at the same settings:\n";
    out << pad("budget", 20) << pad("activations", 13) << pad("runtime", 17) << pad("peak", 12)
        << pad("saved", 7) << "our plan at that budget\n";
    int same = 0;
    for (const RecordedBudgetPoint& r : recorded.points) {
        char runtime[32];
        std::snprintf(runtime, sizeof runtime, "%.6g", r.metrics.estimatedRuntime);
        out << pad(pythonFloat(r.budget), 20) << pad(formatBytes(r.metrics.activationBytes), 13)
            << pad(runtime, 17) << pad(r.metrics.peakBytes ? formatBytes(*r.metrics.peakBytes) : "-", 12)
            << pad(std::to_string(r.saved.size()), 7);
        if (r.sameAsOurs)
            out << "saves the same\n";
        else
            out << "DIFFERS: " << r.savedOnlyByPyTorch.size() << " saved only by PyTorch, "
                << r.savedOnlyByOurs.size() << " only by ours\n";
        same += r.sameAsOurs ? 1 : 0;
    }
    for (const std::string& why : recorded.unusable)
        out << "left out: " << why << "\n";
    out << "our plan saves what PyTorch saved at " << same << " of " << recorded.points.size()
        << " recorded budgets\n";
    if (same != static_cast<int>(recorded.points.size()))
        out << "(the values: --json, or compare GRAPH budget=B pytorch-budget=B)\n";
}

} // namespace

int paretoCommand(const std::vector<std::string>& rawArgs, std::ostream& out)
{
    std::set<std::string> valued = budgetOptionNames();
    valued.insert({"--points", "--threads", "--csv", "--resolution", "--plot", kGraphOption});
    std::set<std::string> flags = partitionFlagNames();
    flags.insert({"--json", "--no-peak"});
    const Arguments args(rawArgs, valued, flags);
    if (args.positionals().size() != 1)
        throw UsageError {"expected exactly one GRAPH file"};
    ParetoOptions options;
    options.points = args.integer("--points", 101, 2);
    options.threads = args.integer("--threads", 0, 0); // 0: one per core
    options.resolution = args.number("--resolution", 1e-6);
    if (!(options.resolution > 0))
        throw UsageError {"--resolution must be positive"};
    options.simulatePeak = !args.flag("--no-peak");
    const BudgetOptions budgetOptions = budgetOptionsFrom(args);

    if (const auto plot = args.value("--plot"))
        checkPictureType(*plot);
    const JointGraph& graph = loadGraphArgument(args);
    const BudgetSession session(graph, budgetPartitionOptionsFrom(args, graph), budgetOptions);
    const ParetoResult result = sweepPareto(session, options);
    const RecordedBudgetPoints recorded = measureRecordedBudgetPlans(session, options.simulatePeak);

    if (const auto path = args.value("--csv")) {
        if (*path == "-")
            out << paretoToCsv(result);
        else
            writeFileAtomically(*path, paretoToCsv(result));
    }
    if (const auto path = args.value("--plot")) {
        plotWriters().pareto(session, result, *path);
        if (!args.flag("--json") && args.value("--csv").value_or("") != "-")
            out << "wrote " << *path << "\n";
    }
    if (args.flag("--json"))
        out << paretoToJson(graph, result, recorded.points);
    else if (args.value("--csv").value_or("") != "-") {
        printTable(graph, result, out);
        printRecorded(graph, recorded, out);
    }
    return 0;
}

} // namespace remat::cli
