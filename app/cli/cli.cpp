// SPDX-License-Identifier: MIT
#include "cli/arguments.h"
#include "cli/commands.h"
#include "graph/error.h"

#include <functional>
#include <map>
#include <ostream>

namespace remat::cli {
namespace {

using Command = std::function<int(const std::vector<std::string>&, std::ostream&)>;

struct CommandInfo {
    Command run;
    const char* usage;
};

const std::map<std::string_view, CommandInfo>& commands()
{
    static const std::map<std::string_view, CommandInfo> table {
        {"partition",
            {partitionCommand,
                "partition GRAPH [--graph ID] [--partitioner min-cut|default] [--rules "
                "torch-1.13|torch-2.14|newest]\n"
                "          [--compiler nvfuser|inductor] [--tag NAME=POLICY ...] [--activation-offloading]\n"
                "          [--inductor-passes auto|on|off] [--json] [-o PLAN.json [--script RUN.py]]\n"
                "    Partition a joint graph as PyTorch would; print a summary, or the plan as JSON;\n"
                "    --script writes a Python script that runs the model with the plan. --tag (repeatable)\n"
                "    sets a node's policy: MUST_SAVE, PREFER_SAVE, MUST_RECOMPUTE, PREFER_RECOMPUTE,\n"
                "    MUST_CPU_OFFLOAD or PREFER_CPU_OFFLOAD. --activation-offloading (or --offload) runs\n"
                "    torch 2.x's offloading pass: saved values tagged *_CPU_OFFLOAD go to the host.\n"
                "    --inductor-passes (every command that partitions) replays Inductor's joint-graph\n"
                "    passes first, under torch-2.14 rules; auto (the default) when the file's decision\n"
                "    came after them (a TORCH_TRACE log of Inductor)."}},
        {"explain",
            {explainCommand,
                "explain GRAPH NODE [--partitioner ...] [--rules ...] [--compiler ...] [--tag NAME=POLICY]\n"
                "          [--budget B [--solver ...] [--estimator ...] [--device NAME]] [--json]\n"
                "    Why the plan decides NODE as it does (the rule; its save edge and the edges around\n"
                "    it, or its knapsack rank), and what if it were flipped (saved -> MUST_RECOMPUTE,\n"
                "    recomputed -> MUST_SAVE): the change in saved bytes, peak and recompute runtime."}},
        {"compare",
            {compareCommand,
                "compare GRAPH A B [--partitioner ...] [--rules ...] [--compiler ...] [--tag NAME=POLICY]\n"
                "          [--solver ...] [--estimator ...] [--device NAME] [--json]\n"
                "    Two plans side by side: values saved only by A, only by B, and each plan's bytes,\n"
                "    peak and recompute runtime. A and B: PLAN.json, pytorch (the file's recorded decision\n"
                "    for the options), pytorch-budget=B, min-cut, default or budget=B."}},
        {"info",
            {infoCommand,
                "info GRAPH [--graph ID]\n    Node counts by class and by op, and activation bytes; for a "
                "TORCH_TRACE log (file or\n"
                "    folder) without --graph, its compiled graphs: compile id, nodes, joint graph or not."}},
        {"bench",
            {benchCommand,
                "bench [GRAPH...] [--repeat N] [--pareto [--points N] [--threads N] | --processes]\n"
                "    Time loading and partitioning next to PyTorch's recorded seconds (default: the gpt\n"
                "    graphs of ../shared/oracle); with --pareto, time the budget sweep against one "
                "partition;\n"
                "    with --processes, time the whole 'partition' command as processes next to /bin/true."}},
        {"budget",
            {budgetCommand,
                "budget GRAPH --budget B [--solver dp|greedy|ilp|dp_knapsack_sliding_hirschberg]\n"
                "          [--estimator flops|testing|roofline] [--device NAME] [--devices FILE]\n"
                "          [--rules torch-2.14|newest] [--activation-offloading] [--json] [-o PLAN.json]\n"
                "    Partition under an activation memory budget B in [0, 1] (torch-2.14 rules, PyTorch's\n"
                "    knapsack); the plan keys plus budget, memory_ratio, activation_bytes,\n"
                "    estimated_runtime, peak_bytes. --device implies the roofline estimator."}},
        {"pareto",
            {paretoCommand,
                "pareto GRAPH [--points N] [--json | --csv FILE|-] [--plot OUT.png|svg|pdf] [--threads N]\n"
                "          [--no-peak] [--solver ...] [--estimator ...] [--device NAME] [--devices FILE]\n"
                "    Every plan from budget 0 to 1 (N grid budgets, default 101, then bisection until each\n"
                "    change is found): activation memory, estimated runtime, peak memory, frontier;\n"
                "    and PyTorch's recorded budget plans (torch 2.x files), each checked against ours."}},
        {"memory",
            {memoryCommand,
                "memory GRAPH [--plan PLAN.json | --budget B] [--csv FILE|-] [--plot OUT.png|svg|pdf] [--top "
                "N]\n"
                "          [--activation-offloading [--device NAME]]\n"
                "    Simulate the plan's forward and backward (autograd order): the memory timeline by\n"
                "    category and the peak, with the tensors live then (default: the plain min-cut)."}},
        {"devices",
            {devicesCommand,
                "devices GRAPH --mode size_based|sparse_nn|cost_aware|kl_based|aot_based --device BYTES\n"
                "          [--device BYTES ...] [--transfer-rate R] [--saturate-host] [--graph ID] [--json]\n"
                "    Split the model's forward across devices (logical ids 0.. in the order given) as\n"
                "    torch.fx's accelerator partitioner does: partitions, memory, latencies, critical "
                "path."}},
    };
    return table;
}

void printUsage(std::ostream& out)
{
    out << "usage: remat-explorer [GRAPH]            open the desktop app\n"
           "       remat-explorer COMMAND [ARGS...]  run headless\n"
           "       remat-explorer --version          print the version\n\ncommands:\n";
    for (const auto& [name, info] : commands())
        out << "  " << info.usage << "\n";
    // render draws with the desktop app's canvas (main() hands it over before the commands).
    out << "  render GRAPH [--plan PLAN.json] [--partitioner P] [--rules R] [--budget B] [--tag "
           "NAME=POLICY]\n"
           "          [--expand all|GROUP] [--graph ID] -o OUT.png|svg|pdf\n"
           "    The canvas as the app draws it (the plan's decision, or the partitioner's), without a "
           "display.\n";
    out << "\nGRAPH: a joint-graph JSON, a printed graph (print_readable, TORCH_LOGS, tlparse), or a "
           "TORCH_TRACE\n"
           "log file or folder; --graph ID (tlparse's compile id, e.g. 0/0 or 1/0) picks one of its "
           "compiled\n"
           "graphs, or of a TORCH_LOGS capture's, for every command above but bench (default: the "
           "only joint graph).\n";
}

} // namespace

bool isCommand(std::string_view name)
{
    return commands().contains(name) || name == "help" || name == "--help" || name == "-h"
        || name == "--version";
}

int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    if (args.empty() || args[0] == "help" || args[0] == "--help" || args[0] == "-h") {
        printUsage(out);
        return 0;
    }
    if (args[0] == "--version") {
        out << "remat-explorer " REMAT_VERSION "\n";
        return 0;
    }
    const auto it = commands().find(args[0]);
    if (it == commands().end()) {
        err << "remat-explorer: unknown command '" << args[0] << "'\n";
        printUsage(err);
        return 2;
    }
    try {
        return it->second.run({args.begin() + 1, args.end()}, out);
    } catch (const UsageError& e) {
        err << "remat-explorer " << args[0] << ": " << e.message << "\nusage: remat-explorer "
            << it->second.usage << "\n";
        return 2;
    } catch (const Error& e) {
        err << "remat-explorer: " << e.what() << "\n";
        return 1;
    } catch (const std::exception& e) {
        err << "remat-explorer: unexpected failure: " << e.what() << "\n";
        return 1;
    }
}

} // namespace remat::cli
