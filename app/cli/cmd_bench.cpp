// SPDX-License-Identifier: MIT
#include "budget/pareto.h"
#include "cli/arguments.h"
#include "cli/bench_processes.h"
#include "cli/bench_timing.h"
#include "cli/commands.h"
#include "cli/format.h"
#include "cli/shared_dir.h"
#include "graph/error.h"
#include "io/graph_loader.h"
#include "partition/partitioner.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <ostream>

namespace remat::cli {
namespace {

template <typename Work> double medianSeconds(int repeat, Work work)
{
    std::vector<double> times;
    for (int i = 0; i < repeat; ++i) {
        const auto start = std::chrono::steady_clock::now();
        work();
        times.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    return median(times);
}

struct Row {
    std::string name;
    std::size_t nodes = 0;
    double load = 0;
    double partition = 0;
    double pytorch = 0; // recorded seconds of min_cut_rematerialization_partition
    RuleSet rules = RuleSet::Torch113;
};

/// The three largest graphs PyTorch 2.14 recorded, so that the default run shows both versions.
std::vector<std::string> largestTorch2Graphs(const std::filesystem::path& dir)
{
    std::vector<std::string> paths;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
        if (entry.path().extension() == ".json")
            paths.push_back(entry.path().string());
    }
    std::sort(paths.begin(), paths.end(), [](const std::string& a, const std::string& b) {
        return std::filesystem::file_size(a) > std::filesystem::file_size(b);
    });
    paths.resize(std::min<std::size_t>(paths.size(), 3));
    std::reverse(paths.begin(), paths.end());
    return paths;
}

std::vector<std::string> defaultGraphs()
{
    std::vector<std::string> paths;
    const auto oracle = sharedDir() / "oracle";
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(oracle, ec)) {
        const auto name = entry.path().filename().string();
        if (name.starts_with("gpt_n") && name.ends_with(".json"))
            paths.push_back(entry.path().string());
    }
    std::sort(paths.begin(), paths.end(), [](const std::string& a, const std::string& b) {
        return std::filesystem::file_size(a) < std::filesystem::file_size(b);
    });
    if (paths.empty())
        throw Error("no graphs given and no gpt_n*.json in " + oracle.string()
            + " (set REMAT_SHARED_DIR or pass GRAPH files)");
    const auto torch2 = largestTorch2Graphs(oracle / "torch2");
    paths.insert(paths.end(), torch2.begin(), torch2.end());
    return paths;
}

/// Least-squares slope of log(time) against log(nodes): 1 is linear growth.
double growthExponent(const std::vector<Row>& rows, double Row::*time)
{
    double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (const Row& r : rows) {
        if (r.nodes < 1000 || r.*time <= 0)
            continue; // small graphs measure fixed costs, not growth
        const double x = std::log(static_cast<double>(r.nodes));
        const double y = std::log(r.*time);
        n += 1;
        sx += x;
        sy += y;
        sxx += x * x;
        sxy += x * y;
    }
    if (n < 2)
        return std::nan("");
    return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

/// The budget sweep against one partition of the same graph (torch-2.14 rules, min-cut, flops estimator).
int benchPareto(const std::vector<std::string>& paths, int repeat, const Arguments& args, std::ostream& out)
{
    ParetoOptions options;
    options.points = args.integer("--points", 200, 2);
    options.threads = args.integer("--threads", 0, 0); // 0: one per core
    out << "Pareto sweep (" << options.points
        << " grid budgets, then bisection; dp solver, flops estimator, peak "
        << "simulated), torch-2.14 rules; median of " << repeat << " runs\n\n";
    out << pad("graph", 16) << pad("nodes", 8) << pad("partition", 11) << pad("sweep", 10)
        << pad("sweep cpu", 11) << pad("budgets", 9) << pad("plans", 7) << "sweep / partition\n";
    PartitionOptions newest;
    newest.rules = RuleSet::Newest;
    for (const auto& path : paths) {
        const JointGraph graph = loadGraphFile(path);
        const double partition = medianSeconds(repeat, [&] { (void)partitionGraph(graph, newest); });
        ParetoResult last;
        std::vector<double> cpu; // processor time of all threads: what a busy machine cannot inflate much
        const double sweep = medianSeconds(repeat, [&] {
            const std::clock_t before = std::clock();
            const BudgetSession session(graph, newest, BudgetOptions {});
            last = sweepPareto(session, options);
            cpu.push_back(static_cast<double>(std::clock() - before) / CLOCKS_PER_SEC);
        });
        char ratio[32];
        std::snprintf(ratio, sizeof ratio, "%.1fx", sweep / partition);
        out << pad(std::filesystem::path(path).stem().string(), 16) << pad(std::to_string(graph.size()), 8)
            << pad(formatSeconds(partition), 11) << pad(formatSeconds(sweep), 10)
            << pad(formatSeconds(median(cpu)), 11) << pad(std::to_string(last.budgetsEvaluated), 9)
            << pad(std::to_string(last.points.size()), 7) << ratio << "\n";
    }
    return 0;
}

} // namespace

int benchCommand(const std::vector<std::string>& rawArgs, std::ostream& out)
{
    const Arguments args(rawArgs, {"--repeat", "--points", "--threads"}, {"--pareto", "--processes"});
    if (args.flag("--pareto") && args.flag("--processes"))
        throw UsageError {"--pareto and --processes time different things: give one"};
    const int repeat = args.integer("--repeat",
        args.flag("--pareto")          ? 3
            : args.flag("--processes") ? 11
                                       : 5,
        1);
    const auto paths = args.positionals().empty() ? defaultGraphs() : args.positionals();
    if (args.flag("--pareto"))
        return benchPareto(paths, repeat, args, out);
    if (args.flag("--processes"))
        return benchProcesses(paths, repeat, out);

    out << "min-cut partition under the rules of the PyTorch that recorded each graph (torch-1.13: nvfuser "
           "op "
           "list); median of "
        << repeat << " runs\n\n";
    out << pad("graph", 28) << pad("nodes", 8) << pad("rules", 12) << pad("load", 10) << pad("partition", 11)
        << pad("load+part", 11) << pad("PyTorch", 10) << pad("PyTorch / ours", 16) << "PyTorch / load+part\n";
    std::vector<Row> rows;
    for (const auto& path : paths) {
        Row row;
        row.name = std::filesystem::path(path).stem().string();
        // Loaded as the partition command loads it.
        row.load
            = medianSeconds(repeat, [&] { (void)loadGraphFile(path, {}, RecordedDetail::SavedSetsOnly); });
        const JointGraph graph = loadGraphFile(path, {}, RecordedDetail::SavedSetsOnly);
        row.nodes = graph.size();
        PartitionOptions options;
        options.rules = row.rules = rulesOfRecording(graph);
        row.partition = medianSeconds(repeat, [&] { (void)partitionGraph(graph, options); });
        if (const auto* recorded = graph.recordedPartition("min_cut"); recorded && recorded->seconds)
            row.pytorch = *recorded->seconds;
        char ratio[32] = "-";
        char wholeRatio[32] = "-";
        if (row.pytorch > 0) {
            std::snprintf(ratio, sizeof ratio, "%.0fx", row.pytorch / row.partition);
            std::snprintf(wholeRatio, sizeof wholeRatio, "%.0fx", row.pytorch / (row.load + row.partition));
        }
        out << pad(row.name, 28) << pad(std::to_string(row.nodes), 8)
            << pad(std::string(ruleSetName(options.rules)), 12) << pad(formatSeconds(row.load), 10)
            << pad(formatSeconds(row.partition), 11) << pad(formatSeconds(row.load + row.partition), 11)
            << pad(row.pytorch > 0 ? formatSeconds(row.pytorch) : "-", 10) << pad(ratio, 16) << wholeRatio
            << "\n";
        rows.push_back(row);
    }
    // Growth is measured on the graphs of one PyTorch at a time, never across versions.
    for (RuleSet rules : {RuleSet::Torch113, RuleSet::Torch214}) {
        std::vector<Row> same;
        std::copy_if(rows.begin(), rows.end(), std::back_inserter(same),
            [&](const Row& r) { return r.rules == rules; });
        const double ours = growthExponent(same, &Row::partition);
        if (std::isnan(ours))
            continue;
        char text[200];
        std::snprintf(text, sizeof text,
            "\ngrowth (time ~ nodes^k over %s graphs of 1000+ nodes): ours k = %.2f, PyTorch k = %.2f\n",
            std::string(ruleSetName(rules)).c_str(), ours, growthExponent(same, &Row::pytorch));
        out << text;
    }
    return 0;
}

} // namespace remat::cli
