// SPDX-License-Identifier: MIT
#pragma once

#include "graph/joint_graph.h"
#include "io/torch_trace_log.h"

#include <optional>
#include <string>
#include <vector>

namespace remat::trace {

/// One compiled graph of a TORCH_TRACE log, as `info` lists it.
struct TracedGraphSummary {
    /// tlparse's compile id ("0/0", "1/0", "0/0_1"); with several log files in a folder, prefixed
    /// by the file's name without dedicated_log_torch_trace_ and .log ("rank_0_ab12:0/0").
    std::string id;
    std::string file;
    int nodes = 0; ///< of the joint graph (else the inference or forward graph); 0 when unreadable
    bool joint = false;
    bool partitioned = false; ///< the log has 2.14's forward and backward graphs: a recorded decision
    bool minCutInformation = false;
    bool afterInductorPasses = false; ///< the decision is of the graph Inductor's joint-graph passes rewrote
    bool inference = false; ///< compiled without a backward
    std::string problem; ///< why the joint graph cannot be read, when it cannot
};

struct TraceListing {
    std::string path;
    std::string format {kTorchTraceLog}; ///< or kTorchLogsCapture
    std::string torchVersion;
    std::vector<TracedGraphSummary> graphs;
};

/// Lists the compiled graphs of a log file or folder; throws remat::Error for a damaged log.
/// A joint graph the printed reader refuses is listed with its problem, not thrown.
TraceListing listTorchTrace(const std::string& path);
/// Same, for logs already read (`path` is only used in messages).
TraceListing listTraceLogs(const std::vector<TraceLogFile>& logs, const std::string& path);

/// The id to open when none is given: the only graph with a joint graph. Otherwise throws
/// remat::Error naming the ids that exist and asking for one (`option`: "--graph" on the command line).
std::string defaultTracedGraph(const TraceListing& listing, const std::string& option);

/// Loads one compiled graph's joint graph by id, with PyTorch's decision from the same log as the
/// recorded reference ("min_cut", or "memory_budget_<b>" under an activation memory budget): the
/// saved values are the backward graph's non-tangent inputs, mapped through the forward graph's
/// outputs to joint-graph nodes. An id without attempt ("0/0") also finds a single "0/0_1".
/// Throws remat::Error for unknown ids ("<path>: no compiled graph 2/0 (the log has: 0/0_1, 1/0)"),
/// a compilation without a joint graph, and damaged graphs ("<file>:<line>: <what>").
JointGraph loadTracedGraph(const std::string& path, const std::string& id);
JointGraph loadTracedGraph(
    const std::vector<TraceLogFile>& logs, const std::string& path, const std::string& id);

/// The min-cut solution 2.14 logged in min_cut_information (AOT_PARTITIONER_DEBUG=1 under a memory
/// budget below 1) for one graph, or nullopt when the log has none.
struct MinCutInformation {
    std::vector<std::string> savedValues; ///< "Min Cut Solution Saved Values"
    double memoryBudget = 0;
};
std::optional<MinCutInformation> tracedMinCutInformation(const std::string& path, const std::string& id);

} // namespace remat::trace
