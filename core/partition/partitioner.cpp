// SPDX-License-Identifier: MIT
#include "partition/partitioner.h"

#include "graph/error.h"
#include "partition/activation_offloading.h"
#include "partition/default_partition.h"
#include "partition/min_cut_preparation.h"

#include <chrono>

namespace remat {
namespace {

/// 2.14 runs its offloading pass after either partitioner; torch 1.13 has none.
void applyActivationOffloading(const JointGraph& graph, const OpCategories& ops, PartitionResult& result)
{
    if (!result.options.config.activationOffloading)
        return;
    if (result.options.rules != RuleSet::Newest) {
        result.notes.emplace_back(
            "activation offloading is a torch 2.x pass: the torch 1.13 rules ignore it");
        return;
    }
    chooseOffloadSets(graph, ops, effectiveTags(graph, result.options), result);
}

} // namespace

std::string forwardOnlyMessage(const JointGraph& graph)
{
    std::string message = graph.filePath() + ": a forward-only graph has no backward to partition";
    if (graph.source().producer.find("TORCH_LOGS: Forward graph") != std::string::npos)
        message
            += " (this is the forward graph PyTorch printed after partitioning, with TORCH_LOGS=aot_graphs;"
               " the file holds no joint graph: print it too with TORCH_LOGS=aot_joint_graph, or open a"
               " TORCH_TRACE log)";
    return message;
}

PartitionResult partitionGraph(const JointGraph& graph, const PartitionOptions& options)
{
    const auto start = std::chrono::steady_clock::now();
    if (graph.kind() == GraphKind::Forward)
        throw Error(forwardOnlyMessage(graph));
    if (!graph.sizesKnown())
        throw Error(graph.filePath()
            + ": the graph carries no tensor sizes (torch 1.13 prints none), so it "
              "cannot be partitioned; export it as JSON with samples/export_joint_graph.py");
    PartitionResult result;
    result.options = options;
    if (options.partitioner == PartitionerKind::MinCut) {
        const PreparedMinCut prepared(graph, options);
        if (options.rules == RuleSet::Newest && !prepared.hasBackward()) {
            result.effectiveTags = effectiveTags(graph, options);
            result.notes.emplace_back(
                "the graph has no backward: min-cut falls back to the default partition");
            defaultPartitionNewest(graph, prepared.ops(), result);
        } else {
            prepared.finish(prepared.solve(), result);
        }
        applyActivationOffloading(graph, prepared.ops(), result);
    } else {
        result.effectiveTags = effectiveTags(graph, options);
        const OpCategories ops(graph, options.rules, options.compiler);
        if (options.rules == RuleSet::Newest)
            defaultPartitionNewest(graph, ops, result);
        else
            defaultPartitionTorch113(graph, ops, result);
        applyActivationOffloading(graph, ops, result);
    }
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
}

} // namespace remat
