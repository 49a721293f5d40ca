// SPDX-License-Identifier: MIT
#include "explain/plan_file_reader.h"

#include "graph/error.h"
#include "io/plan_json.h"

namespace remat {

PartitionResult readPlanResult(
    const PlanRunner& runner, const std::string& path, const PartitionOptions& options)
{
    const JointGraph& graph = runner.graph();
    const PlanFile file = readPlanFile(path); // names the file and key when the JSON is wrong
    checkPlanMatchesGraph(file, graph, path);
    std::vector<NodeId> saved;
    for (std::size_t i = 0; i < file.savedValues.size(); ++i) {
        const std::string& name = file.savedValues[i];
        const NodeId n = graph.find(name);
        if (n == kNoNode)
            throw Error(path + ": \"saved_values\"[" + std::to_string(i) + "]: '" + name
                + "' is not a node of " + graph.filePath());
        saved.push_back(n);
    }
    return runner.planSaving(options, saved, path);
}

} // namespace remat
