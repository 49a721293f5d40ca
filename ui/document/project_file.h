// SPDX-License-Identifier: MIT
#pragma once

#include "model/budget_settings.h"
#include "model/policy_names.h"
#include "partition/partition_options.h"

#include <QJsonObject>
#include <QString>

#include <map>
#include <optional>
#include <string>

namespace remat::ui {

/// What the user changed about a graph, kept in a sidecar file beside it (the graph file itself
/// is never rewritten): tags by node name, and the partitioner settings.
struct ProjectData {
    /// Node name -> tag. CheckpointPolicy::None records that the user cleared a tag the file had.
    std::map<std::string, CheckpointPolicy> tags;
    std::optional<PartitionerKind> partitioner;
    std::optional<RuleSet> rules;
    std::optional<OpListCompiler> compiler;
    /// The memory-budget partitioner is chosen (written as partitioner "budget").
    bool budgetMode = false;
    std::optional<BudgetSettings> budget;
    /// torch 2.x's enable_activation_offloading, once the user changed it.
    std::optional<bool> activationOffloading;
    /// Whether Inductor's joint-graph passes are replayed, once the user chose (else as recorded).
    std::optional<bool> inductorJointPasses;

    bool operator==(const ProjectData&) const = default;
};

/// Where a graph's project file lives: "<graph file>.remat" beside the graph when that folder
/// is writable, else in the user's data folder (read-only folders, the bundled sample).
namespace ProjectFile {
/// "<graph file name>-<hash of its absolute path>": names the graph's files in the user's folders.
QString storageName(const QString& graphPath);
QString besidePath(const QString& graphPath);
QString fallbackPath(const QString& graphPath);
/// The existing project file for a graph, or empty.
QString find(const QString& graphPath);
/// Where to save: the existing file, else beside the graph if possible, else the fallback.
QString saveLocation(const QString& graphPath);

/// The file's JSON; `decode` returns nullopt and sets `error` (naming `path`) for another format.
QJsonObject encode(const QString& graphPath, const ProjectData& data);
std::optional<ProjectData> decode(const QJsonObject& root, const QString& path, QString* error);
/// Returns nullopt and sets `error` for a file that exists but cannot be read.
std::optional<ProjectData> read(const QString& path, QString* error);
/// Writes atomically; returns false and sets `error` on failure.
bool write(const QString& path, const QString& graphPath, const ProjectData& data, QString* error);
} // namespace ProjectFile

} // namespace remat::ui
