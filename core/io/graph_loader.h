// SPDX-License-Identifier: MIT
#pragma once

#include "graph/joint_graph.h"

#include <string>

namespace remat {

/// Opens any graph file the app understands: joint-graph JSON (the first non-blank character is
/// '{') or a graph PyTorch printed as code (print_readable, TORCH_LOGS, tlparse). Throws
/// remat::Error with the reader's message.
JointGraph loadGraphFile(const std::string& path);

/// Same, for text already in memory; `fileName` is only used in messages.
JointGraph loadGraphText(const std::string& text, const std::string& fileName);

/// True when `text` looks like JSON to loadGraphText (first non-blank character is `{` or `[`).
bool looksLikeJson(const std::string& text);

} // namespace remat
