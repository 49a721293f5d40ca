// SPDX-License-Identifier: MIT
#include "model/partition_outcome.h"

#include "graph/error.h"
#include "partition/partitioner.h"

#include <chrono>

namespace remat::ui {

QString referenceKeyFor(const JointGraph& graph, const PartitionOptions& options)
{
    std::vector<std::string> candidates;
    if (options.partitioner == PartitionerKind::Default) {
        candidates = {"default"};
    } else if (options.compiler == OpListCompiler::Inductor) {
        candidates = {"min_cut_inductor", "min_cut"};
    } else {
        candidates = {"min_cut"};
    }
    for (const auto& key : candidates) {
        if (graph.recordedPartition(key))
            return QString::fromStdString(key);
    }
    return {};
}

PartitionOutcomePtr runPartition(const LoadedGraph& loaded, const PartitionOptions& options, std::uint64_t generation)
{
    auto outcome = std::make_shared<PartitionOutcome>();
    outcome->generation = generation;
    outcome->options = options;
    const JointGraph& graph = loaded.graph;
    const auto start = std::chrono::steady_clock::now();
    try {
        outcome->result = std::make_shared<const PartitionResult>(partitionGraph(graph, options));
    } catch (const Error& e) {
        outcome->error = QString::fromUtf8(e.what());
        return outcome;
    } catch (const std::exception& e) {
        outcome->error = QStringLiteral("The partitioner failed: %1").arg(QString::fromUtf8(e.what()));
        return outcome;
    }
    outcome->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    describePartition(*outcome, loaded, referenceKeyFor(graph, options));
    return outcome;
}

void describePartition(PartitionOutcome& outcome, const LoadedGraph& loaded, const QString& referenceKey)
{
    const JointGraph& graph = loaded.graph;
    const PartitionResult& r = *outcome.result;
    auto& flags = outcome.flags;
    flags.assign(graph.size(), 0);
    outcome.banIndex.assign(graph.size(), -1);
    auto mark = [&](NodeId n, DecisionFlag f) { flags[static_cast<std::size_t>(n)] |= f; };
    for (NodeId n : r.savedValues)
        mark(n, Saved);
    for (NodeId n : r.recomputed)
        mark(n, Recomputed);
    for (NodeId n : r.fwNodes)
        mark(n, InForward);
    for (NodeId n : r.bwNodes)
        mark(n, InBackward);
    for (NodeId n : r.dceRemoved)
        mark(n, DceRemoved);
    for (std::size_t i = 0; i < r.banned.size(); ++i) {
        mark(r.banned[i].node, Banned);
        outcome.banIndex[static_cast<std::size_t>(r.banned[i].node)] = static_cast<int>(i);
    }
    for (std::size_t i = 0; i < r.mergedInto.size() && i < graph.size(); ++i) {
        if (r.mergedInto[i] != kNoNode)
            flags[i] |= CseMerged;
    }

    if (!referenceKey.isEmpty() && graph.recordedPartition(referenceKey.toStdString()))
        outcome.referenceKey = referenceKey;
    if (!outcome.referenceKey.isEmpty()) {
        const RecordedPartition* ref = graph.recordedPartition(outcome.referenceKey.toStdString());
        for (const auto& name : ref->savedValues) {
            const NodeId n = graph.find(name);
            if (n == kNoNode)
                continue;
            mark(n, ReferenceSaved);
            outcome.referenceSavedBytes += loaded.bytesOf(n);
        }
        for (std::size_t i = 0; i < graph.size(); ++i) {
            const bool ours = flags[i] & Saved;
            const bool theirs = flags[i] & ReferenceSaved;
            if (ours && !theirs)
                outcome.onlyOurs.push_back(static_cast<NodeId>(i));
            else if (theirs && !ours)
                outcome.onlyReference.push_back(static_cast<NodeId>(i));
        }
    }
}

} // namespace remat::ui
