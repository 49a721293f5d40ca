// SPDX-License-Identifier: MIT
// remat-explorer memory: the memory timeline of a plan and its peak.
#include "budget/budget_io.h"
#include "budget/budget_session.h"
#include "budget/plan_from_saved.h"
#include "cli/budget_args.h"
#include "cli/commands.h"
#include "cli/format.h"
#include "cli/graph_argument.h"
#include "cli/partition_options_from_args.h"
#include "cli/plot_writers.h"
#include "explain/plan_file_reader.h"
#include "graph/error.h"
#include "io/file_text.h"
#include "io/graph_loader.h"
#include "io/plan_json.h"

#include <algorithm>
#include <filesystem>
#include <ostream>

namespace remat::cli {
namespace {

/// The plan a file names, cut out of this graph (its saved values decide everything else).
BudgetedPlan planFromFile(const BudgetSession& session, const std::string& path)
{
    const PlanFile file = readPlanFile(path);
    checkPlanMatchesGraph(file, session.graph(), path);
    BudgetedPlan plan = [&] {
        try {
            return planFromSavedNames(session, savedNames(file), path);
        } catch (const Error& e) {
            throw Error(e.what() + missingSymNodesHint(session.graph(), file));
        }
    }();
    plan.budget = file.budget.value_or(1.0);
    return plan;
}

void printProfile(const JointGraph& graph, const BudgetedPlan& plan, const DeviceProfile& device,
    std::size_t top, std::ostream& out)
{
    const MemoryProfile& profile = *plan.memory;
    out << pad("saved", 13) << plan.result.savedValues.size() << " values; activations "
        << formatBytes(plan.metrics.activationBytes) << " (distinct storages, inputs excluded)"
        << savedSymIntsText(plan.result.savedSymNodes.size()) << "\n";
    if (plan.result.options.config.activationOffloading) {
        out << pad("offloaded", 13) << plan.result.offloaded.size() << " values, "
            << formatBytes(plan.result.offloadedBytes) << "; on the host at most "
            << formatBytes(profile.peakHostBytes) << "; copies "
            << formatSeconds(offloadTransferSeconds(plan.result.offloadedBytes, device)) << " at "
            << formatBytes(static_cast<std::int64_t>(device.hostLinkBandwidth)) << "/s each way ("
            << (device.name.empty() ? std::string("2.14's activation_offload_cpu_gpu_bw") : device.name)
            << ")\n";
    }
    out << pad("steps", 13) << profile.forwardSteps << " forward, "
        << profile.timeline.size() - static_cast<std::size_t>(profile.forwardSteps)
        << " backward (autograd order)\n";
    std::int64_t forwardPeak = 0, backwardPeak = 0;
    for (const auto& step : profile.timeline)
        (step.phase == Phase::Forward ? forwardPeak : backwardPeak)
            = std::max(step.phase == Phase::Forward ? forwardPeak : backwardPeak, step.total());
    out << pad("peak", 13) << formatBytes(profile.peakBytes) << " at step " << profile.peakStep << ", "
        << (profile.peakPhase == Phase::Forward ? "forward" : "backward") << " node '"
        << peakNodeName(graph, profile.peakNode) << "' (forward peak " << formatBytes(forwardPeak)
        << ", backward peak " << formatBytes(backwardPeak) << ")\n";
    if (profile.peakStep >= 0) {
        const auto& at = profile.timeline[static_cast<std::size_t>(profile.peakStep)];
        out << pad("at the peak", 13);
        std::string separator;
        for (std::size_t c = 0; c < kMemoryCategoryCount; ++c) {
            if (at.bytes[c] == 0)
                continue;
            out << separator << categoryName(static_cast<MemoryCategory>(c)) << " "
                << formatBytes(at.bytes[c]);
            separator = ", ";
        }
        out << "\n";
    }
    out << "\nlargest tensors live at the peak (" << profile.liveAtPeak.size() << " in all):\n";
    for (std::size_t i = 0; i < std::min(top, profile.liveAtPeak.size()); ++i) {
        const auto& t = profile.liveAtPeak[i];
        out << "  " << pad(graph.node(t.owner).name, 32) << pad(formatBytes(t.bytes), 12)
            << categoryName(t.category) << "\n";
    }
}

} // namespace

int memoryCommand(const std::vector<std::string>& rawArgs, std::ostream& out)
{
    std::set<std::string> valued = budgetOptionNames();
    valued.insert({"--plan", "--budget", "--csv", "--top", "--plot", kGraphOption});
    const Arguments args(rawArgs, valued, partitionFlagNames());
    if (args.positionals().size() != 1)
        throw UsageError {"expected exactly one GRAPH file"};
    if (args.value("--plan") && args.value("--budget"))
        throw UsageError {"--plan and --budget both choose the plan: give one"};
    const double configured = budgetFrom(args, 1.0);
    const int top = args.integer("--top", 15, 0);
    const BudgetOptions budgetOptions = budgetOptionsFrom(args);

    if (const auto plot = args.value("--plot"))
        checkPictureType(*plot);
    const JointGraph& graph = loadGraphArgument(args);
    const BudgetSession session(graph, budgetPartitionOptionsFrom(args, graph), budgetOptions);
    BudgetedPlan plan;
    std::string planName; // in the picture's title
    out << graph.filePath() << ": ";
    if (const auto path = args.value("--plan")) {
        plan = planFromFile(session, *path);
        planName = std::filesystem::path(*path).filename().string();
        out << "plan " << *path << " (forward and backward re-extracted under the torch-2.14 rules)\n";
    } else {
        plan = session.plan(session.resolveBudget(configured).budget, MemorySimulationOptions {});
        planName = "the plan at memory budget " + pythonFloat(plan.budget);
        out << "min-cut, torch-2.14 rules, memory budget " << pythonFloat(plan.budget) << "\n";
    }
    if (const auto csv = args.value("--csv")) {
        if (*csv == "-") {
            out << memoryTimelineToCsv(graph, *plan.memory);
            return 0;
        }
        writeFileAtomically(*csv, memoryTimelineToCsv(graph, *plan.memory));
    }
    if (const auto path = args.value("--plot")) {
        plotWriters().timeline(graph, *plan.memory, planName, *path);
        out << "wrote " << *path << "\n";
    }
    printProfile(
        graph, plan, budgetOptions.device.value_or(DeviceProfile {}), static_cast<std::size_t>(top), out);
    return 0;
}

} // namespace remat::cli
