// SPDX-License-Identifier: MIT
#include "cli/bench_processes.h"

#include "cli/bench_timing.h"
#include "cli/child_environment.h"
#include "cli/format.h"
#include "cli/oracle_timings.h"
#include "cli/shared_dir.h"
#include "graph/error.h"
#include "io/graph_loader.h"

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <ostream>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace remat::cli {
namespace {

struct ProcessTimes {
    std::vector<double> wall;
    std::vector<double> cpu; // user + system seconds of the child
};

std::string joined(const std::vector<std::string>& argv)
{
    std::string text;
    for (const auto& arg : argv)
        text += (text.empty() ? "" : " ") + arg;
    return text;
}

double seconds(const timeval& t)
{
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6;
}

std::vector<char*> pointersTo(const std::vector<std::string>& texts)
{
    std::vector<char*> pointers;
    for (const auto& text : texts)
        pointers.push_back(const_cast<char*>(text.c_str()));
    pointers.push_back(nullptr);
    return pointers;
}

/// Starts `argv` with its output thrown away and waits for it; throws remat::Error unless it exits 0.
void runOnce(const std::vector<std::string>& argv, ProcessTimes& times)
{
    static const std::vector<std::string> environment = environmentBeforeRestart(environ);
    static const std::vector<char*> childEnvironment = pointersTo(environment);
    const std::vector<char*> args = pointersTo(argv);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
    pid_t pid = 0;
    const auto start = std::chrono::steady_clock::now();
    const int spawned = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), childEnvironment.data());
    posix_spawn_file_actions_destroy(&actions);
    if (spawned != 0)
        throw Error(argv[0] + ": cannot start: " + std::strerror(spawned));
    int status = 0;
    rusage usage {};
    if (wait4(pid, &status, 0, &usage) != pid)
        throw Error(joined(argv) + ": lost the process: " + std::strerror(errno));
    times.wall.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    times.cpu.push_back(seconds(usage.ru_utime) + seconds(usage.ru_stime));
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        throw Error("bench --processes: '" + joined(argv) + "' failed (run it to see why)");
}

ProcessTimes timeProcess(const std::vector<std::string>& argv, int repeat)
{
    ProcessTimes times;
    runOnce(argv, times); // warm the page cache; not counted
    times = {};
    for (int i = 0; i < repeat; ++i)
        runOnce(argv, times);
    return times;
}

std::string ratio(double pytorch, double ours)
{
    if (pytorch <= 0 || ours <= 0)
        return "-";
    char text[32];
    std::snprintf(text, sizeof text, "%.0fx", pytorch / ours);
    return text;
}

} // namespace

int benchProcesses(const std::vector<std::string>& paths, int repeat, std::ostream& out)
{
    std::error_code ec;
    const std::string self = std::filesystem::read_symlink("/proc/self/exe", ec).string();
    if (ec)
        throw Error("bench --processes: cannot find this program (/proc/self/exe): " + ec.message());
    const ProcessTimes baseline = timeProcess({"/bin/true"}, repeat);
    out << "whole processes: '" << std::filesystem::path(self).filename().string()
        << " partition GRAPH --rules R' (start, load, partition, print, exit; output to /dev/null); median "
           "of "
        << repeat << " runs\nbaseline /bin/true: " << formatSeconds(median(baseline.wall)) << " wall, "
        << formatSeconds(median(baseline.cpu)) << " cpu\n";
    const auto readme = sharedDir() / "oracle" / "README.md";
    out << "PyTorch: the min-cut seconds the graph recorded; quiet: PyTorch 1.13's median on a quiet "
        << "machine, where " << readme.string() << " lists the model\n\n";
    out << pad("graph", 28) << pad("nodes", 8) << pad("rules", 12) << pad("wall", 10) << pad("cpu", 10)
        << pad("/bin/true x", 13) << pad("PyTorch", 10) << pad("PyTorch / wall", 16)
        << pad("PyTorch / cpu", 15) << pad("quiet", 10) << "quiet / wall\n";
    for (const auto& path : paths) {
        const JointGraph graph = loadGraphFile(path, {}, RecordedDetail::SavedSetsOnly);
        const std::string rules(ruleSetName(rulesOfRecording(graph)));
        const ProcessTimes times = timeProcess({self, "partition", path, "--rules", rules}, repeat);
        const double wall = median(times.wall);
        const double cpu = median(times.cpu);
        const auto* recorded = graph.recordedPartition("min_cut");
        const double pytorch = recorded && recorded->seconds ? *recorded->seconds : 0;
        const std::string model = std::filesystem::path(path).stem().string();
        const double quiet = rules == "torch-1.13" ? quietMinCutSeconds(readme, model).value_or(0) : 0;
        char overTrue[32];
        std::snprintf(overTrue, sizeof overTrue, "%.1fx", wall / median(baseline.wall));
        out << pad(model, 28) << pad(std::to_string(graph.size()), 8) << pad(rules, 12)
            << pad(formatSeconds(wall), 10) << pad(formatSeconds(cpu), 10) << pad(overTrue, 13)
            << pad(pytorch > 0 ? formatSeconds(pytorch) : "-", 10) << pad(ratio(pytorch, wall), 16)
            << pad(ratio(pytorch, cpu), 15) << pad(quiet > 0 ? formatSeconds(quiet) : "-", 10)
            << ratio(quiet, wall) << "\n";
    }
    return 0;
}

} // namespace remat::cli
