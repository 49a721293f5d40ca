// SPDX-License-Identifier: MIT
#pragma once

#include "partition/work_graph.h"

#include <span>
#include <string_view>
#include <vector>

namespace remat {

/// A forward or backward graph cut out of the joint graph, as _extract_graph_with_inputs_outputs does.
struct ExtractedGraph {
    std::vector<NodeId> nodes; ///< the inputs (placeholders, in input order), then computed nodes in joint order
    std::vector<char> contains; ///< per joint node id
    std::vector<NodeId> unusedInputs; ///< inputs nothing in the graph reads

    bool has(NodeId n) const { return contains[static_cast<std::size_t>(n)] != 0; }
};

/// Per-node flags, indexed by node id; a null pointer means "no node".
struct ExtractionRules {
    /// Kept by dead-code elimination even when unused (impure nodes).
    const std::vector<char>* impure = nullptr;
    /// Newest rules: nodes that may not be copied into this graph (placement tags).
    const std::vector<char>* forbidden = nullptr;
    std::string_view graphName = "graph"; ///< "forward" or "backward", for messages
};

/// Per node: kInputNode for the graph's inputs, kAvailableNode for what can be computed from
/// them (the inputs, and nodes whose inputs are all available). Depends only on the inputs, so a
/// caller that extracts many graphs from the same inputs computes it once.
constexpr std::uint8_t kInputNode = 1;
constexpr std::uint8_t kAvailableNode = 2;
std::vector<std::uint8_t> availability(const WorkGraph& graph, std::span<const NodeId> inputs,
                                       const ExtractionRules& rules);

/// The graph from `inputs` to `outputs`, given their availability: what the outputs (and the
/// impure available nodes) need. Throws remat::Error when an output is not available.
ExtractedGraph extractAvailable(const WorkGraph& graph, std::span<const std::uint8_t> available,
                                std::span<const NodeId> inputs, std::span<const NodeId> outputs,
                                const ExtractionRules& rules);

/// Copies every node whose inputs are all available (the inputs themselves, or copied nodes),
/// then drops what neither an output nor an impure node needs. This copying is what recomputes
/// forward values in the backward. Throws remat::Error when an output cannot be computed.
ExtractedGraph extractSubgraph(const WorkGraph& graph, std::span<const NodeId> inputs,
                               std::span<const NodeId> outputs, const ExtractionRules& rules);

} // namespace remat
