// SPDX-License-Identifier: MIT
#include "explain/plan_file_reader.h"

#include "graph/error.h"
#include "io/plan_json.h"

#include <algorithm>

namespace remat {

std::string missingSymNodesHint(const JointGraph& graph, const PlanFile& plan)
{
    const bool dynamic = std::any_of(graph.nodes().begin(), graph.nodes().end(),
        [](const Node& node) { return node.valueKind == ValueKind::Symbolic; });
    if (!dynamic || !plan.savedSymNodes.empty())
        return {};
    return " (the plan lists no \"saved_sym_nodes\": with dynamic shapes the forward passes SymInts to "
           "the backward beside the saved values)";
}

PartitionResult readPlanResult(
    const PlanRunner& runner, const std::string& path, const PartitionOptions& options)
{
    const JointGraph& graph = runner.graph();
    const PlanFile file = readPlanFile(path); // names the file and key when the JSON is wrong
    checkPlanMatchesGraph(file, graph, path);
    std::vector<NodeId> saved;
    for (const auto& [key, names] :
        {std::pair {"saved_values", &file.savedValues}, std::pair {"saved_sym_nodes", &file.savedSymNodes}}) {
        for (std::size_t i = 0; i < names->size(); ++i) {
            const std::string& name = (*names)[i];
            const NodeId n = graph.find(name);
            if (n == kNoNode)
                throw Error(path + ": \"" + key + "\"[" + std::to_string(i) + "]: '" + name
                    + "' is not a node of " + graph.filePath());
            saved.push_back(n);
        }
    }
    try {
        return runner.planSaving(options, saved, path);
    } catch (const Error& e) {
        throw Error(e.what() + missingSymNodesHint(graph, file));
    }
}

} // namespace remat
