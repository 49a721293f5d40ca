// SPDX-License-Identifier: MIT
// Helpers shared by the conformance tests (not a test itself: no tst_ prefix).
#pragma once

#include "graph/joint_graph.h"
#include "graph/recorded_partition.h"
#include "io/joint_graph_reader.h"
#include "partition/partition_result.h"

#include <QByteArray>
#include <QDir>
#include <QString>
#include <QStringList>

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace remat::testing {

/// The *.json files of a folder, by name.
inline QStringList jsonFilesIn(const QString& folder)
{
    QStringList files;
    const QDir dir(folder);
    for (const auto& name : dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name))
        files << dir.filePath(name);
    return files;
}

/// Rows run and rows passed per "category/recording kind", printed at the end.
struct Tally {
    int run = 0;
    int passed = 0;
};
inline std::map<QString, Tally>& tallies()
{
    static std::map<QString, Tally> t;
    return t;
}
inline void printTallies()
{
    for (const auto& [key, t] : tallies())
        qInfo("%s: %d of %d identical to PyTorch 2.14.1", qPrintable(key), t.passed, t.run);
}

/// Each oracle graph is checked under several settings: read it once.
inline const JointGraph& loadedOnce(const QString& path)
{
    static std::map<QString, std::unique_ptr<JointGraph>> cache;
    auto& slot = cache[path];
    if (!slot)
        slot = std::make_unique<JointGraph>(readJointGraphFile(path.toStdString()));
    return *slot;
}

inline std::vector<std::string> names(const JointGraph& graph, const std::vector<NodeId>& nodes)
{
    std::vector<std::string> out;
    for (NodeId n : nodes)
        out.push_back(graph.node(n).name);
    return out;
}

inline std::vector<std::string> sorted(std::vector<std::string> v)
{
    std::sort(v.begin(), v.end());
    return v;
}

/// "only ours: a b (2) | only PyTorch's: c (1)" for a failure message.
inline QByteArray setDifference(const std::vector<std::string>& ours, const std::vector<std::string>& theirs)
{
    const auto a = sorted(ours);
    const auto b = sorted(theirs);
    std::vector<std::string> onlyOurs;
    std::vector<std::string> onlyTheirs;
    std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(onlyOurs));
    std::set_difference(b.begin(), b.end(), a.begin(), a.end(), std::back_inserter(onlyTheirs));
    const auto list = [](const std::vector<std::string>& v) {
        QByteArray text;
        for (std::size_t i = 0; i < std::min<std::size_t>(v.size(), 12); ++i)
            text += " " + QByteArray::fromStdString(v[i]);
        return text + " (" + QByteArray::number(v.size()) + ")";
    };
    QByteArray text = "only ours:" + list(onlyOurs) + " | only PyTorch's:" + list(onlyTheirs);
    if (onlyOurs.empty() && onlyTheirs.empty())
        text += " (same set, different order)";
    return text;
}

/// Empty when `result` is the decision PyTorch recorded: the same saved values (in the same order
/// when `inOrder`: min-cut emits them in graph order; else as sets), saved sym nodes, forward and
/// backward node sets. Otherwise what differs first.
inline QByteArray differenceFromRecorded(
    const JointGraph& graph, const PartitionResult& result, const RecordedPartition& expected, bool inOrder)
{
    const auto saved = names(graph, result.savedValues);
    if (inOrder ? saved != expected.savedValues : sorted(saved) != sorted(expected.savedValues))
        return "saved values " + setDifference(saved, expected.savedValues);
    const std::pair<const std::vector<NodeId>*, const std::vector<std::string>*> sets[]
        = {{&result.savedSymNodes, &expected.savedSymNodes}, {&result.fwNodes, &expected.fwNodes},
            {&result.bwNodes, &expected.bwNodes}};
    const char* what[] = {"sym nodes ", "forward ", "backward "};
    for (std::size_t i = 0; i < std::size(sets); ++i) {
        const auto ours = names(graph, *sets[i].first);
        if (sorted(ours) != sorted(*sets[i].second))
            return what[i] + setDifference(ours, *sets[i].second);
    }
    return {};
}

} // namespace remat::testing
