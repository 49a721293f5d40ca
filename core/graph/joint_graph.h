// SPDX-License-Identifier: MIT
#pragma once

#include "graph/name_index.h"
#include "graph/node.h"
#include "graph/op_info.h"
#include "graph/recorded_partition.h"
#include "graph/string_hash.h"

#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace remat {

enum class GraphKind : std::uint8_t { Joint, Forward };

struct GraphSource {
    std::string producer;
    std::string model;
    std::string description;
    /// source.recipe as JSON text: how the exporter can rebuild the model and its inputs
    /// (samples/export_joint_graph.py build_from_recipe); empty when the file has none.
    std::string recipeJson;
    /// Why the file's record of PyTorch's decision could not be used (a TORCH_TRACE log whose
    /// partitioned graphs do not fit its joint graph); empty otherwise.
    std::string unmatchedDecision;
    /// PyTorch partitioned the graph inside torch.compile's TracingContext (a TORCH_TRACE log, or
    /// an export that says so): there fx's dead-code elimination treats random ops as pure
    /// (impure_random = inductor's fallback_random, off by default), so dead dropouts go.
    bool partitionedInsideCompile = false;
};

/// An AOTAutograd joint (or plain forward) graph: nodes in topological order, ending in one output.
/// Immutable once built; partitioners work on index-based views of it.
class JointGraph {
public:
    JointGraph() = default;
    // Copies are not cheap and not needed: share a built graph through a pointer to const.
    JointGraph(const JointGraph&) = delete;
    JointGraph& operator=(const JointGraph&) = delete;
    JointGraph(JointGraph&&) = default;
    JointGraph& operator=(JointGraph&&) = default;

    const std::vector<Node>& nodes() const { return m_nodes; }
    const Node& node(NodeId id) const { return m_nodes[static_cast<std::size_t>(id)]; }
    std::size_t size() const { return m_nodes.size(); }
    NodeId find(std::string_view name) const;

    const OpInfo& op(OpId id) const { return m_ops[id]; }
    const OpInfo& opOf(NodeId id) const { return m_ops[node(id).target]; }
    std::size_t opCount() const { return m_ops.size(); }
    /// The id of a target string, or nullopt if no node of this graph uses it.
    std::optional<OpId> findOp(std::string_view target) const;

    const Arg& arg(ArgIndex index) const { return m_args[index]; }
    /// The items of a List, or the alternating keys and values of a Dict.
    std::span<const Arg> children(const Arg& container) const
    {
        const std::size_t count
            = container.kind == ArgKind::Dict ? 2 * std::size_t {container.size} : container.size;
        return {m_args.data() + container.first, count};
    }
    const std::string& string(std::uint32_t index) const { return m_strings[index]; }

    NodeId outputNode() const { return m_outputNode; }
    /// The output node's flattened list; kNoNode where PyTorch has None (or a non-node constant).
    const std::vector<NodeId>& outputs() const { return m_outputs; }
    int numFwdOutputs() const { return m_numFwdOutputs; }
    std::span<const NodeId> fwdOutputs() const
    {
        return {m_outputs.data(), static_cast<std::size_t>(m_numFwdOutputs)};
    }
    std::span<const NodeId> bwdOutputs() const
    {
        return {
            m_outputs.data() + m_numFwdOutputs, m_outputs.size() - static_cast<std::size_t>(m_numFwdOutputs)};
    }

    GraphKind kind() const { return m_kind; }
    const GraphSource& source() const { return m_source; }
    const std::string& filePath() const { return m_filePath; }
    /// PyTorch's own decisions recorded in the file: "min_cut", "default", "min_cut_inductor", ...
    const std::map<std::string, RecordedPartition>& recorded() const { return m_recorded; }
    const RecordedPartition* recordedPartition(const std::string& key) const;
    const std::string& recordedTorchVersion() const { return m_recordedTorchVersion; }
    /// False when the file gave no tensor sizes (torch 1.13's printed graphs): nothing can be sized.
    bool sizesKnown() const { return m_sizesKnown; }
    /// Parameter/buffer primals the exporter marked as static-lifetime (positions among primals).
    const std::vector<int>& staticLifetimeInputIndices() const { return m_staticLifetimeInputs; }

private:
    friend class JointGraphBuilder;

    std::vector<Node> m_nodes;
    std::vector<OpInfo> m_ops;
    std::vector<Arg> m_args;
    std::vector<std::string> m_strings;
    NameIndex m_byName;
    StringMap<OpId> m_opByTarget;
    NodeId m_outputNode = kNoNode;
    std::vector<NodeId> m_outputs;
    int m_numFwdOutputs = 0;
    GraphKind m_kind = GraphKind::Joint;
    GraphSource m_source;
    std::string m_filePath;
    std::map<std::string, RecordedPartition> m_recorded;
    std::string m_recordedTorchVersion;
    std::vector<int> m_staticLifetimeInputs;
    bool m_sizesKnown = true;
};

} // namespace remat
