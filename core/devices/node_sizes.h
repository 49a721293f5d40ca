// SPDX-License-Identifier: MIT
#pragma once

#include "devices/forward_graph.h"
#include "devices/forward_tables.h"

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace remat::devices {

/// torch.fx.passes.graph_manipulation's size_bytes of one node.
struct SizeBytes {
    std::int64_t outputSize = 0; ///< numel(output) x element size
    std::int64_t totalSize = 0; ///< output, plus the parameters of a call_module's submodule
};

/// A set of nodes iterated in graph order (PyTorch's set order is its own; ours is stable).
using NodeSet = std::set<NodeId>;

/// The forward graph with every node's size, as get_size_of_all_nodes tags it, and the size
/// arithmetic partitions are built on.
class SizedGraph {
public:
    /// Throws PyTorch's error for a node without a single-tensor shape, and remat::Error for a
    /// call_module whose module is not in `modules`.
    SizedGraph(const ForwardGraph& graph, const std::map<std::string, ModuleInfo>& modules);

    const ForwardGraph& graph() const { return m_graph; }
    const SizeBytes& size(NodeId n) const;
    /// Σ total_size of the nodes before the output: the whole module's footprint.
    std::int64_t totalSize() const;
    /// get_extra_size_of: the output sizes of the node's inputs outside `nodes`, plus its total.
    std::int64_t extraSizeOf(NodeId n, const NodeSet& nodes) const;
    /// The repr of every module on a call_module target's path ("a", "a.b", ...), or a throw
    /// naming the missing one.
    std::vector<const ModuleInfo*> modulePath(NodeId n) const;

private:
    const ForwardGraph& m_graph;
    const std::map<std::string, ModuleInfo>& m_modules;
    std::vector<std::optional<SizeBytes>> m_sizes;
};

} // namespace remat::devices
