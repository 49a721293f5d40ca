// SPDX-License-Identifier: MIT
// remat-explorer budget: one plan under an activation memory budget (PyTorch's knapsack).
#include "budget/budget_io.h"
#include "budget/budget_session.h"
#include "cli/budget_args.h"
#include "cli/commands.h"
#include "cli/format.h"
#include "cli/graph_argument.h"
#include "cli/partition_options_from_args.h"
#include "cli/recorded_line.h"
#include "explain/recorded_plan.h"
#include "io/file_text.h"
#include "io/graph_loader.h"
#include "partition/rng_states.h"

#include <chrono>
#include <cstdio>
#include <ostream>

namespace remat::cli {
namespace {

void printSummary(const BudgetSession& session, const BudgetedPlan& plan, const ResolvedBudget& resolved,
    double seconds, const BudgetOptions& options, std::ostream& out)
{
    const JointGraph& graph = session.graph();
    const auto& planner = session.planner();
    const auto& m = plan.metrics;
    const auto unit = planner.estimator().unit();
    out << graph.filePath() << ": " << graph.size() << " nodes; min-cut, torch-2.14 rules, memory budget "
        << pythonFloat(plan.budget);
    if (resolved.fromNode != kNoNode)
        out << " (meta[\"memory_budget\"] of node '" << graph.node(resolved.fromNode).name << "')";
    out << "\n";
    out << pad("decided by", 13) << stageName(plan.stage);
    if (plan.stage == BudgetStage::Knapsack)
        out << " (" << solverName(planner.options().solver) << ", " << planner.items().size()
            << " candidates, " << plan.decision.knapsack.recomputed.size() << " allowed to be recomputed)";
    out << "\n";
    out << pad("estimator", 13) << estimatorName(planner.options().estimator);
    if (const auto* device = planner.estimator().device())
        out << " on " << device->name;
    out << "\n";
    out << pad("memory ratio", 13);
    if (m.memoryRatio) {
        char ratio[32];
        std::snprintf(ratio, sizeof ratio, "%.4f", *m.memoryRatio);
        out << ratio << "\n";
    } else {
        out << "undefined (the runtime-optimal cut saves no more than the inputs)\n";
    }
    out << pad("activations", 13) << formatBytes(m.activationBytes)
        << " kept for the backward (distinct storages, "
        << "inputs excluded)\n";
    out << pad("saved", 13) << plan.result.savedValues.size() << " values, " << formatBytes(m.savedBytes)
        << " summed" << savedSymIntsText(plan.result.savedSymNodes.size()) << "\n";
    if (plan.result.options.config.activationOffloading)
        out << pad("offloaded", 13) << plan.result.offloaded.size() << " values, "
            << formatBytes(plan.result.offloadedBytes) << " on the host (activation offloading)\n";
    out << pad("recomputed", 13) << plan.result.recomputed.size() << " nodes, estimated "
        << formatRuntime(m.estimatedRuntime, unit) << "\n";
    out << rngStatesLine(graph, savedRngStateOps(graph, plan.result), 13);
    if (plan.memory) {
        out << pad("peak", 13) << formatBytes(plan.memory->peakBytes) << " at step " << plan.memory->peakStep
            << " (" << (plan.memory->peakPhase == Phase::Forward ? "forward" : "backward") << ", "
            << peakNodeName(graph, plan.memory->peakNode) << ")\n";
    }
    out << pad("graphs", 13) << "forward " << plan.result.fwNodes.size() << " nodes, backward "
        << plan.result.bwNodes.size() << " nodes\n";
    // The last note is the budget's own ("memory budget 0.5: knapsack ..."), which "decided by" says.
    for (std::size_t i = 0; i + 1 < plan.result.notes.size(); ++i)
        out << pad("note", 13) << plan.result.notes[i] << "\n";
    out << pad("time", 13) << formatSeconds(seconds) << "\n";
    // As partition does: PyTorch's decision at this budget when the file recorded one.
    printRecordedComparison(graph, plan.result, 13, out, plan.budget, budgetRecordVariant(options));
}

} // namespace

int budgetCommand(const std::vector<std::string>& rawArgs, std::ostream& out)
{
    std::set<std::string> valued = budgetOptionNames();
    valued.insert({"--budget", "-o", kGraphOption});
    std::set<std::string> flags = partitionFlagNames();
    flags.insert("--json");
    const Arguments args(rawArgs, valued, flags);
    if (args.positionals().size() != 1)
        throw UsageError {"expected exactly one GRAPH file"};
    const double configured = budgetFrom(args, 1.0);
    const BudgetOptions budgetOptions = budgetOptionsFrom(args);

    const JointGraph& graph = loadGraphArgument(args);
    const auto start = std::chrono::steady_clock::now();
    const BudgetSession session(graph, budgetPartitionOptionsFrom(args, graph), budgetOptions);
    const ResolvedBudget resolved = session.resolveBudget(configured);
    const BudgetedPlan plan = session.plan(resolved.budget, MemorySimulationOptions {false, false});
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    const auto unit = session.planner().estimator().unit();
    const auto json = [&] {
        PlanExtras extras = budgetPlanExtras(graph, plan, unit);
        addBudgetSettings(extras, budgetOptions.solver, budgetOptions.estimator,
            budgetOptions.device ? budgetOptions.device->name : std::string());
        return planToJson(graph, plan.result, extras);
    };
    if (const auto path = args.value("-o"))
        writeFileAtomically(*path, json());
    if (args.flag("--json"))
        out << json();
    else
        printSummary(session, plan, resolved, seconds, budgetOptions, out);
    return 0;
}

} // namespace remat::cli
