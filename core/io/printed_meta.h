// SPDX-License-Identifier: MIT
#pragma once

#include "graph/node.h"

#include <string_view>

namespace remat::printed {

/// Reads the summary comment FX prints above a run of nodes (verbose print_readable), which holds
/// for every node up to the next one:
///   torch 1.13:  "# File: model.py:12, code: y = x @ w" or "# No stacktrace found for following nodes"
///   torch 2.x:   "# File: model.py:12 in forward, code: y = x @ w",
///                "# ac_graph_id: 1 - PREFER_RECOMPUTE File: ..." (also "# # ac_graph_id: ...",
///                "# recompute: MUST_SAVE ...", "# ac_graph_id: 3 ..."), "Backward of forward node: File:
///                ...", "Annotation: {...}" (ignored).
/// `comment` is the text after the '#'. The stack trace kept is the summary from "File:" on.
/// Throws remat::Error (no location) for an unknown checkpoint policy name.
NodeMeta parseSummaryComment(std::string_view comment);

} // namespace remat::printed
