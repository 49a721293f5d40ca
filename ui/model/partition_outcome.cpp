// SPDX-License-Identifier: MIT
#include "model/partition_outcome.h"

#include "explain/recorded_comparison.h"
#include "explain/unnamed_provenance.h"
#include "graph/error.h"
#include "partition/partitioner.h"
#include "partition/rng_states.h"

#include <chrono>

namespace remat::ui {

PartitionOutcomePtr runPartition(
    const LoadedGraph& loaded, const PartitionOptions& options, std::uint64_t generation)
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
        // Not a problem of the graph's (those are Errors): say so. The panel and the status bar add
        // "The partitioner failed:" themselves.
        outcome->error = QStringLiteral("internal error: %1").arg(QString::fromUtf8(e.what()));
        return outcome;
    }
    outcome->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    describePartition(*outcome, loaded);
    return outcome;
}

void describePartition(PartitionOutcome& outcome, const LoadedGraph& loaded, std::optional<double> budget,
    std::string_view budgetVariant)
{
    const JointGraph& graph = loaded.graph;
    const PartitionResult& r = *outcome.result;
    auto& flags = outcome.flags;
    flags.assign(graph.size(), 0);
    outcome.banIndex.assign(graph.size(), -1);
    auto mark = [&](NodeId n, DecisionFlag f) { flags[static_cast<std::size_t>(n)] |= f; };
    for (NodeId n : r.savedValues)
        mark(n, Saved);
    for (NodeId n : r.savedSymNodes) // dynamic shapes: SymInts go to the backward too
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

    outcome.rngStateOps = savedRngStateOps(graph, r);
    const auto comparison = compareWithRecorded(graph, r, budget, budgetVariant);
    if (!comparison)
        return;
    outcome.referenceRngStates = comparison->recordedRngStates;
    outcome.referenceKey = QString::fromStdString(comparison->plan.key);
    for (const auto& name : comparison->plan.recorded->savedValues) {
        const NodeId n = graph.find(name);
        if (n == kNoNode)
            continue; // listed in unknownReferenceNames
        mark(n, ReferenceSaved);
        outcome.referenceSavedBytes += loaded.bytesOf(n);
    }
    for (const auto& name : comparison->plan.recorded->savedSymNodes) {
        if (const NodeId n = graph.find(name); n != kNoNode)
            mark(n, ReferenceSaved); // counted in neither side's bytes, as PyTorch's plan counts tensors
    }
    outcome.onlyOurs = comparison->onlyOurs;
    outcome.onlyReference = comparison->onlyRecorded;
    outcome.unknownReferenceNames = comparison->unknownNames;
    outcome.referenceNote = differenceExplanation(graph, r, *comparison);
}

} // namespace remat::ui
