// SPDX-License-Identifier: MIT
#pragma once

#include "graph/joint_graph.h"
#include "partition/partition_result.h"

#include <string>

namespace remat {

/// A Python script that runs one training step of the graph's model with a saved plan, through
/// samples/apply_plan.py's compile_with_plan. When the file records how it was exported
/// (source.recipe) the script rebuilds the model and inputs by itself and is ready to run;
/// otherwise it says where to build them. `toolsDir` holds apply_plan.py and export_joint_graph.py.
/// `planLabel` names the plan in the header ("memory budget 0.3 (...)"); empty: the result's
/// partitioner and rules, which for a budget plan would wrongly say "min-cut".
std::string planRunnerScript(const JointGraph& graph, const PartitionResult& result,
    const std::string& planPath, const std::string& toolsDir, const std::string& planLabel = {});

} // namespace remat
