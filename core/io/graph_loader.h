// SPDX-License-Identifier: MIT
#pragma once

#include "graph/joint_graph.h"

#include <string>

namespace remat {

/// Opens any graph file the app understands: joint-graph JSON (the first non-blank character is
/// '{'), a graph PyTorch printed as code (print_readable, TORCH_LOGS, tlparse), or a TORCH_TRACE
/// log file or folder. Of a TORCH_TRACE log or a TORCH_LOGS capture it opens the compiled graph
/// `traceGraph` (tlparse's compile id, "0/0"), or when that is empty the only joint graph
/// (several: an error listing them).
/// Throws remat::Error with the reader's message. `detail` says what a joint-graph JSON file's
/// recorded decisions keep (the other formats keep what they have).
JointGraph loadGraphFile(const std::string& path, const std::string& traceGraph = {},
    RecordedDetail detail = RecordedDetail::Full);

/// Same, for text already in memory; `fileName` is only used in messages.
JointGraph loadGraphText(
    const std::string& text, const std::string& fileName, const std::string& traceGraph = {});

/// True when `text` looks like JSON to loadGraphText: it starts with `{`, or with `[` and a JSON value
/// (not a log line such as "[transformers] ..." or "[2023-10-12 11:04:05,419] ...").
bool looksLikeJson(const std::string& text);

} // namespace remat
