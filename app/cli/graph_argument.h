// SPDX-License-Identifier: MIT
#pragma once

#include "cli/arguments.h"
#include "graph/joint_graph.h"

#include <string>

namespace remat::cli {

/// "--graph ID": which compiled graph of a TORCH_TRACE log or TORCH_LOGS capture (tlparse's compile
/// id, "0/0") to open.
inline const std::string kGraphOption = "--graph";

/// The GRAPH positional as a graph: a graph file, or a TORCH_TRACE log file or folder with its
/// --graph (or its only joint graph). Throws remat::Error with the loader's message.
/// The graph stays until the next call or the end of the process: main() ends without freeing it
/// (a 10k-node graph takes longer to free than to partition).
const JointGraph& loadGraphArgument(const Arguments& args);

} // namespace remat::cli
