// SPDX-License-Identifier: MIT
#include "devices/split_order.h"

#include "graph/error.h"

#include <algorithm>

namespace remat::devices {
namespace {

/// Keeps first-insertion order, like the dicts split_module uses as ordered sets.
template <typename T> void insertOnce(std::vector<T>& list, const T& item)
{
    if (std::find(list.begin(), list.end(), item) == list.end())
        list.push_back(item);
}

struct SplitPartition {
    int id = 0;
    std::vector<NodeId> outputs;
    std::vector<int> dependents; ///< partitions using its values
    std::vector<int> dependsOn; ///< partitions whose values it uses
};

} // namespace

SplitModuleShape splitModuleShape(const ForwardGraph& graph, const std::map<NodeId, int>& nodeToPartition)
{
    std::vector<SplitPartition> parts; // in first-appearance order
    std::map<NodeId, std::size_t> partOfNode;
    auto partIndex = [&](int id) {
        const auto it
            = std::find_if(parts.begin(), parts.end(), [&](const SplitPartition& p) { return p.id == id; });
        if (it != parts.end())
            return static_cast<std::size_t>(it - parts.begin());
        parts.push_back(SplitPartition {id, {}, {}, {}});
        return parts.size() - 1;
    };
    int inputsAndConstants = 0;
    for (NodeId n : graph.nodes()) {
        if (graph.isInputOrConstant(n)) {
            ++inputsAndConstants;
            continue;
        }
        const auto assigned = nodeToPartition.find(n);
        if (assigned == nodeToPartition.end())
            throw Error(
                "node \"" + graph.name(n) + "\" is in no partition (PyTorch: KeyError in split_module)");
        const std::size_t use = partIndex(assigned->second);
        partOfNode[n] = use;
        for (NodeId input : graph.inputs(n)) {
            const auto def = partOfNode.find(input);
            if (def == partOfNode.end() || def->second == use)
                continue;
            insertOnce(parts[def->second].outputs, input);
            insertOnce(parts[def->second].dependents, parts[use].id);
            insertOnce(parts[use].dependsOn, parts[def->second].id);
        }
    }
    for (NodeId out : graph.outputs()) {
        const auto def = partOfNode.find(out);
        if (def != partOfNode.end())
            insertOnce(parts[def->second].outputs, out);
    }

    SplitModuleShape shape;
    std::vector<int> roots;
    for (const SplitPartition& p : parts) {
        if (p.dependsOn.empty())
            roots.push_back(p.id);
    }
    while (!roots.empty()) {
        const int root = roots.back();
        roots.pop_back();
        shape.partitionOrder.push_back(root);
        for (int dependent : parts[partIndex(root)].dependents) {
            auto& waiting = parts[partIndex(dependent)].dependsOn;
            std::erase(waiting, root);
            if (waiting.empty())
                roots.push_back(dependent);
        }
    }
    if (shape.partitionOrder.size() != parts.size())
        throw Error("cycle exists between partitions!");
    // Inputs and constants, one call per submodule (plus a getitem per value when it returns
    // several), and the output.
    shape.graphNodes = inputsAndConstants + 1;
    for (const SplitPartition& p : parts)
        shape.graphNodes += 1 + (p.outputs.size() > 1 ? static_cast<int>(p.outputs.size()) : 0);
    return shape;
}

std::vector<DagNode> dumpDag(const SplitModuleShape& shape, const PartitionList& partitions)
{
    std::vector<DagNode> dag;
    for (int id : shape.partitionOrder) {
        if (id < 0 || static_cast<std::size_t>(id) >= partitions.size())
            throw Error("partition id " + std::to_string(id) + " is not a position in the partition list "
                + "(PyTorch: IndexError in dump_dag)");
        const Partition& p = *partitions[static_cast<std::size_t>(id)];
        dag.push_back(DagNode {"submod_" + std::to_string(id), id, p.logicalDeviceIds, p.usedMemBytes});
    }
    return dag;
}

} // namespace remat::devices
