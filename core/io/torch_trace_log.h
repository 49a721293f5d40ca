// SPDX-License-Identifier: MIT
#pragma once

#include "io/printed_source.h"
#include "io/symbolic_size.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace remat::trace {

/// How torch names the log of each process in a TORCH_TRACE folder: <prefix><rank and random>.log.
inline constexpr std::string_view kTraceLogPrefix = "dedicated_log_torch_trace_";

/// One structured-trace record's payload: the tab-indented lines after its metadata line, the tab
/// removed, with their line numbers in the log.
struct TraceArtifact {
    int line = 0; ///< the metadata line
    std::vector<printed::SourceLine> payload;
};

/// The payload's lines joined (a JSON artifact's text).
std::string payloadText(const TraceArtifact& artifact);

/// What one compilation (one compile id) left in a TORCH_TRACE log. A later record of the same
/// kind replaces an earlier one, as tlparse shows the last.
struct TracedCompile {
    /// As tlparse writes it: "0/0", "1/0", "0/0_1" (attempt 1), "!0/1/0" (compiled autograd).
    std::string id;
    std::optional<TraceArtifact> joint; ///< aot_joint_graph
    std::optional<TraceArtifact> forward; ///< aot_forward_graph
    std::optional<TraceArtifact> backward; ///< aot_backward_graph
    std::optional<TraceArtifact> inference; ///< aot_inference_graph (no backward: nothing to partition)
    std::optional<TraceArtifact> minCutInformation; ///< artifact min_cut_information (json)
    std::optional<TraceArtifact> functorchConfig; ///< artifact torch._functorch.config (json)
    std::optional<TraceArtifact> forwardMetadata; ///< artifact aot_forward_graph_fw_metadata (a repr)
    /// Inductor's joint-graph passes that ran before the partitioner ("remove_noop_ops", from the
    /// chromium_event records "pass.joint_graph_passes.<name>"), in order; empty under aot_eager.
    std::vector<std::string> jointGraphPasses;
    /// Dynamic shapes: each backed symbol's example value, from the create_symbol records.
    printed::SymbolHints symbolHints;
    /// The graph Dynamo handed to AOTAutograd (dynamo_output_graph): its inputs' names, in order.
    std::optional<TraceArtifact> dynamoGraph;
    /// Where Dynamo found each input tensor, as its describe_source records say
    /// ("L['self']._modules['lm']._parameters['weight']"), in order of appearance.
    std::vector<std::string> inputSources;
};

/// One log file (one process or rank) of a TORCH_TRACE folder.
/// What a TraceLogFile was read from, as messages name it.
inline constexpr std::string_view kTorchTraceLog = "TORCH_TRACE log";
inline constexpr std::string_view kTorchLogsCapture = "TORCH_LOGS capture"; ///< io/torch_logs_capture.h

struct TraceLogFile {
    std::string path;
    std::string format {kTorchTraceLog}; ///< kTorchTraceLog or kTorchLogsCapture
    std::string torchVersion; ///< compilation_metrics' pytorch_version, when the log has one
    std::vector<TracedCompile> compiles; ///< in order of first appearance, only those with an AOT graph
};

/// True for a folder holding dedicated_log_torch_trace_*.log files, or a file whose first
/// non-blank line is a structured-trace record (`V1124 04:23:44.672000 5986 file.py:1377] {"...`).
bool isTorchTracePath(const std::string& path);
bool looksLikeTorchTrace(std::string_view text);

/// Reads one log. Lines that are neither a record nor a payload, unreadable metadata of the
/// records read here, or a declared payload that is missing throw
/// remat::Error("<file>:<line>: <what>").
TraceLogFile readTraceLog(const std::string& text, const std::string& fileName);

/// A log file, or every dedicated_log_torch_trace_*.log in a folder (sorted by name). Throws
/// remat::Error when a folder holds none.
std::vector<TraceLogFile> readTracePath(const std::string& path);

} // namespace remat::trace
