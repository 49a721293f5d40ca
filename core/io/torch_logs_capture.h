// SPDX-License-Identifier: MIT
#pragma once

#include "io/torch_trace_log.h"

#include <optional>
#include <string>

namespace remat::trace {

/// What a TORCH_LOGS capture (stderr of TORCH_LOGS="aot_joint_graph,aot_graphs") holds, read as a
/// TORCH_TRACE log's compilations (format "TORCH_LOGS capture"): per compile id of the records'
/// prefixes ("[1/0] [__aot_joint_graph]"), its "Joint graph", "Forward graph" and "Backward graph"
/// and aot_graphs' "fw_metadata=ViewAndMutationMeta(...)" line, whose static_input_indices say which
/// inputs are parameters. Forward and backward graphs are kept only beside that line, since 2.14's
/// min-cut saves parameters for free and a decision read without them would be misjudged.
/// nullopt when no joint graph's record names a compile id (a print_readable dump, an unprefixed
/// log, or a capture of aot_graphs alone, whose missing joint graph the printed reader explains).
std::optional<TraceLogFile> readTorchLogsCapture(const std::string& text, const std::string& fileName);

} // namespace remat::trace
