// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/rule_set.h"
#include "graph/joint_graph.h"

#include <vector>

namespace remat::cli {

/// The middle value (the upper one of an even count). `values` must not be empty.
double median(std::vector<double> values);

/// The rules of the PyTorch that recorded the graph's decision: its seconds are compared with ours
/// under the same rules (torch-2.14 for a 2.x recording, else torch-1.13).
RuleSet rulesOfRecording(const JointGraph& graph);

} // namespace remat::cli
