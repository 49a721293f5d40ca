// SPDX-License-Identifier: MIT
#pragma once

#include "model/partition_outcome.h"

#include <QString>

#include <string>

namespace remat::ui {

/// What a script's header calls the plan: "memory budget 0.3 (torch-2.14 rules, dp knapsack,
/// flops estimator)" for a budget plan; empty for the others (their result names them).
std::string planLabel(const PartitionOutcome& outcome);

/// The plan file's text: core's planToJson, plus for a memory-budget plan the keys the command
/// line's `budget -o` adds ("budget", "memory_ratio", "activation_bytes", "estimated_runtime",
/// "peak_bytes", ...). Throws remat::Error when the outcome has no result.
std::string planFileText(const LoadedGraph& graph, const PartitionOutcome& outcome);

/// Writes the plan file atomically. Throws remat::Error with the core's message.
void writePlanFile(const QString& path, const LoadedGraph& graph, const PartitionOutcome& outcome);

/// Writes the plan file and a Python script that runs one training step of the model with it
/// (core's planRunnerScript; `toolsDir` holds apply_plan.py and export_joint_graph.py).
/// Throws remat::Error.
void writePlanAndScript(const QString& planPath, const QString& scriptPath, const QString& toolsDir,
    const LoadedGraph& graph, const PartitionOutcome& outcome);

/// Where the plan goes beside a script: "run_mlp.py" runs "mlp.plan.json".
QString planPathForScript(const QString& scriptPath);

/// True when `dir` holds apply_plan.py and export_joint_graph.py.
bool isToolsDir(const QString& dir);
/// The installed Python bridge (the data dir's python/), if it holds the tools; else empty (ask
/// the user).
QString defaultToolsDir();

/// The Python that has torch on Debian (a venv's python3 earlier on PATH usually has not).
QString pythonInterpreter();
/// The shell command that runs a script: "/usr/bin/python3 /path/run.py" (quoted when needed).
QString scriptCommand(const QString& scriptPath);

} // namespace remat::ui
