// SPDX-License-Identifier: MIT
// remat-explorer compare: two plans of one graph, which values each saves, and what each costs.
#include "budget/region_budget.h"
#include "budget/runtime_text.h"
#include "cli/commands.h"
#include "cli/format.h"
#include "cli/graph_argument.h"
#include "cli/plan_request_from_args.h"
#include "explain/explain_json.h"
#include "explain/plan_comparison.h"
#include "explain/plan_file_reader.h"
#include "explain/recorded_comparison.h"
#include "explain/recorded_plan.h"
#include "graph/node_label.h"
#include "io/graph_loader.h"

#include <charconv>
#include <filesystem>
#include <ostream>

namespace remat::cli {
namespace {

constexpr std::size_t kWidth = 13;
constexpr std::size_t kListed = 20; ///< names listed before "and N more"

/// One side of the comparison, as the command line names it.
struct PlanSpec {
    enum class Kind { File, Recorded, RecordedBudget, Computed } kind = Kind::Computed;
    std::string text; ///< as given
    PlanRequest request; ///< Computed: how to make it; Recorded: the options it must match
    std::optional<double> budget;
};

/// The B of "budget=B": a number, in [0, 1] (PyTorch's message otherwise).
double budgetOf(const std::string& spec, std::string_view number)
{
    double value = 0;
    const auto [end, error] = std::from_chars(number.data(), number.data() + number.size(), value);
    if (number.empty() || error != std::errc {} || end != number.data() + number.size())
        throw UsageError {"plan \"" + spec + "\": the budget must be a number"};
    checkMemoryBudget(value);
    return value;
}

PlanSpec parseSpec(const std::string& text, const PlanRequest& shared)
{
    PlanSpec spec;
    spec.text = text;
    spec.request = shared;
    if (text == "pytorch") {
        spec.kind = PlanSpec::Kind::Recorded;
    } else if (text.starts_with("pytorch-budget=")) {
        spec.kind = PlanSpec::Kind::RecordedBudget;
        spec.budget
            = budgetOf(text, std::string_view(text).substr(std::string_view("pytorch-budget=").size()));
    } else if (text == "min-cut" || text == "default") {
        spec.request.options.partitioner
            = text == "default" ? PartitionerKind::Default : PartitionerKind::MinCut;
    } else if (text.starts_with("budget=")) {
        spec.request.budget
            = budgetOf(text, std::string_view(text).substr(std::string_view("budget=").size()));
        spec.request.options.rules = RuleSet::Newest;
        spec.request.options.partitioner = PartitionerKind::MinCut;
    } else {
        // "mincut" or "budget0.5" is a mistyped plan, not a missing file: say what is accepted.
        std::error_code ec;
        if (!std::filesystem::exists(text, ec) && text.find('/') == std::string::npos
            && !text.ends_with(".json"))
            throw UsageError {"plan \"" + text
                + "\": expected PLAN.json, pytorch, pytorch-budget=B, min-cut, default or budget=B"};
        spec.kind = PlanSpec::Kind::File;
    }
    return spec;
}

struct Side {
    PartitionResult result;
    PlanSummary summary;
    std::string label;
};

Side makeSide(const PlanRunner& runner, const PlanSpec& spec)
{
    const JointGraph& graph = runner.graph();
    Side side;
    switch (spec.kind) {
    case PlanSpec::Kind::File:
        side.result = readPlanResult(runner, spec.text, spec.request.options);
        side.label = "plan file " + spec.text;
        break;
    case PlanSpec::Kind::Recorded:
    case PlanSpec::Kind::RecordedBudget: {
        // With --solver or --estimator, only a record made that way will do (memory_budget_<b>_greedy).
        const std::string variant
            = spec.budget ? budgetRecordVariant(spec.request.budgetOptions) : std::string();
        side.result = recordedPlanResult(runner, spec.request.options, spec.budget, variant);
        side.label = "PyTorch " + graph.recordedTorchVersion() + "'s recorded "
            + *recordedKey(graph, spec.request.options, spec.budget, variant);
        break;
    }
    case PlanSpec::Kind::Computed: {
        PlanRun run = runner.run(spec.request);
        side.result = std::move(run.result);
        side.summary = run.summary;
        side.label = describeRequest(spec.request);
        return side;
    }
    }
    side.summary = runner.summarize(side.result);
    return side;
}

void printRow(const std::string& label, const std::string& a, const std::string& b, const std::string& delta,
    std::ostream& out)
{
    out << pad(label, kWidth) << pad(a, 24) << pad(b, 24) << delta << "\n";
}

void printNames(
    const JointGraph& graph, const std::string& label, const std::vector<NodeId>& nodes, std::ostream& out)
{
    out << pad(label, kWidth) << nodes.size();
    for (std::size_t i = 0; i < nodes.size() && i < kListed; ++i)
        out << (i ? ", " : ": ") << nameWithInputName(graph.node(nodes[i]));
    if (nodes.size() > kListed)
        out << ", and " << nodes.size() - kListed << " more";
    out << "\n";
}

void printComparison(
    const JointGraph& graph, const PlanComparison& c, const Side& a, const Side& b, std::ostream& out)
{
    const std::string unit = c.a.runtimeUnit;
    out << graph.filePath() << "\n"
        << pad("A", kWidth) << a.label << "\n"
        << pad("B", kWidth) << b.label << "\n";
    printRow("", "A", "B", "B - A", out);
    printRow("saved", std::to_string(c.a.savedCount) + " (" + formatBytes(c.a.savedBytes) + ")",
        std::to_string(c.b.savedCount) + " (" + formatBytes(c.b.savedBytes) + ")",
        formatBytesDelta(c.b.savedBytes - c.a.savedBytes), out);
    // Counts shown only when either plan has some: SymInts (dynamic shapes), RNG states (random ops).
    const auto printCountRow = [&out](const char* label, int inA, int inB) {
        if (inA == 0 && inB == 0)
            return;
        const int delta = inB - inA;
        printRow(label, std::to_string(inA), std::to_string(inB),
            delta == 0 ? "±0" : (delta > 0 ? "+" : "") + std::to_string(delta), out);
    };
    printCountRow("SymInts", c.a.savedSymCount, c.b.savedSymCount);
    printCountRow("RNG states", c.a.rngStateCount, c.b.rngStateCount);
    printRow("activations", formatBytes(c.a.activationBytes), formatBytes(c.b.activationBytes),
        formatBytesDelta(c.b.activationBytes - c.a.activationBytes), out);
    printRow("peak", formatBytes(c.a.peakBytes), formatBytes(c.b.peakBytes),
        formatBytesDelta(c.b.peakBytes - c.a.peakBytes), out);
    const double runtimeDelta = c.b.estimatedRuntime - c.a.estimatedRuntime;
    printRow("recomputed",
        std::to_string(c.a.recomputedCount) + " (" + formatRuntime(c.a.estimatedRuntime, unit) + ")",
        std::to_string(c.b.recomputedCount) + " (" + formatRuntime(c.b.estimatedRuntime, unit) + ")",
        formatRuntimeDelta(runtimeDelta, unit), out);
    if (const std::string note = flooredOpsNote(c.b.flooredRecomputeCount - c.a.flooredRecomputeCount, unit);
        !note.empty())
        out << pad("", kWidth) << "recompute B - A: " << note << "\n";
    printNames(graph, "only in A", c.onlyInA, out);
    printNames(graph, "only in B", c.onlyInB, out);
    out << pad("in both", kWidth) << c.inBoth.size() << "\n";
    if (const std::string note = replacedSymbolNote(graph, c.onlyInA, c.onlyInB); !note.empty())
        out << pad("", kWidth) << note << "\n";
}

} // namespace

int compareCommand(const std::vector<std::string>& rawArgs, std::ostream& out)
{
    std::set<std::string> valued = planRequestOptionNames();
    valued.erase("--budget"); // each side says its own budget
    valued.insert(kGraphOption);
    const Arguments args(rawArgs, valued, {"--json"});
    if (args.positionals().size() != 3)
        throw UsageError {"expected a GRAPH file and two plans A and B"};
    const PlanRequest shared = planRequestFrom(args);
    PlanSpec a = parseSpec(args.positionals()[1], shared);
    PlanSpec b = parseSpec(args.positionals()[2], shared);

    const JointGraph& graph = loadGraphArgument(args);
    addTags(a.request, args, graph); // the shared options, tags too, apply to both sides
    addTags(b.request, args, graph);
    const PlanRunner runner(graph, shared.budgetOptions);
    const Side sideA = makeSide(runner, a);
    const Side sideB = makeSide(runner, b);
    const PlanComparison c = comparePlans(sideA.result, sideA.summary, sideB.result, sideB.summary);
    if (args.flag("--json"))
        out << comparisonToJson(graph, c, sideA.label, sideB.label);
    else
        printComparison(graph, c, sideA, sideB, out);
    return 0;
}

} // namespace remat::cli
