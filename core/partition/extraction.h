// SPDX-License-Identifier: MIT
#pragma once

#include "partition/work_graph.h"

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace remat {

/// A forward or backward graph cut out of the joint graph, as _extract_graph_with_inputs_outputs does.
struct ExtractedGraph {
    std::vector<NodeId>
        nodes; ///< the inputs (placeholders, in input order), then computed nodes in joint order
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

/// Availability per node: kInputNode for the graph's inputs, kAvailableNode for what can be
/// computed from them (the inputs, and nodes whose inputs are all available).
constexpr std::uint8_t kInputNode = 1;
constexpr std::uint8_t kAvailableNode = 2;

/// Extraction of many graphs under the same rules (the memory-budget sweep splits thousands of
/// plans): what the rules say of each node is looked up once, and the caller's buffers are
/// reused. extractSubgraph() below builds one for a single extraction.
class Extractor {
public:
    Extractor(const WorkGraph& graph, const ExtractionRules& rules);

    /// Availability from `inputs`, into `state`. Depends only on the inputs, so a caller that
    /// extracts many graphs from the same inputs computes it once.
    void availability(std::span<const NodeId> inputs, std::vector<std::uint8_t>& state) const;
    /// The graph from `inputs` to `outputs`, given their availability: what the outputs (and the
    /// impure available nodes) need, into `out`. Throws remat::Error when an output is not available.
    void extract(std::span<const std::uint8_t> available, std::span<const NodeId> inputs,
        std::span<const NodeId> outputs, ExtractedGraph& out) const;

private:
    enum Kind : std::uint8_t {
        kUnavailable, ///< a placeholder or output that is not an input, or forbidden here
        kAlwaysAvailable, ///< get_attr
        kIfInputsAre,
    };
    const WorkGraph* m_graph;
    std::string m_graphName;
    std::vector<std::uint8_t> m_kind; ///< per node
    std::vector<char> m_impure; ///< per node (all zero without rules.impure)
    std::vector<NodeId> m_impureNodes; ///< in graph order
};

/// Copies every node whose inputs are all available (the inputs themselves, or copied nodes),
/// then drops what neither an output nor an impure node needs. This copying is what recomputes
/// forward values in the backward. Throws remat::Error when an output cannot be computed.
ExtractedGraph extractSubgraph(const WorkGraph& graph, std::span<const NodeId> inputs,
    std::span<const NodeId> outputs, const ExtractionRules& rules);

} // namespace remat
