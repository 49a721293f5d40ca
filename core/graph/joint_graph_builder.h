// SPDX-License-Identifier: MIT
#pragma once

#include "graph/joint_graph.h"

#include <array>
#include <string_view>

namespace remat {

/// Builds a JointGraph node by node and checks the invariants every partitioner relies on:
/// unique names, references only to earlier nodes, exactly one output node and it comes last.
/// Violations throw remat::Error with a message naming the node (the caller adds the file).
class JointGraphBuilder {
public:
    JointGraphBuilder();

    // The arg pool: lists and dicts reserve their children contiguously, then fill them.
    std::uint32_t reserveArgs(std::uint32_t count);
    Arg& argAt(std::uint32_t index) { return m_graph.m_args[index]; }
    std::uint32_t intern(std::string_view text);
    OpId internOp(std::string_view target);
    std::optional<OpId> findOp(std::string_view target) const { return m_graph.findOp(target); }

    /// Node names must be unique; returns the id the next addNode() will get.
    NodeId nextId() const { return static_cast<NodeId>(m_graph.m_nodes.size()); }
    NodeId find(std::string_view name) const { return m_graph.find(name); }
    NodeId addNode(Node node);
    /// A reader that fills a node where the graph keeps it, instead of moving it there: newNode()
    /// appends an empty node, commitNode() checks and indexes it as addNode() does. A failure in
    /// between leaves the node behind: the builder is dropped with the error.
    Node& newNode() { return m_graph.m_nodes.emplace_back(); }
    NodeId commitNode();
    /// Room for `nodes` nodes (and their args), when the count is known up front.
    void reserve(std::size_t nodes);

    void setNumFwdOutputs(int count) { m_numFwdOutputs = count; }
    void setKind(GraphKind kind) { m_graph.m_kind = kind; }
    void setSource(GraphSource source) { m_graph.m_source = std::move(source); }
    void setFilePath(std::string path) { m_graph.m_filePath = std::move(path); }
    void addRecorded(std::string key, RecordedPartition partition);
    RecordedPartition* recorded(const std::string& key);
    void setRecordedTorchVersion(std::string version) { m_graph.m_recordedTorchVersion = std::move(version); }
    /// The source carried no tensor sizes (a graph torch 1.13 printed): it can be shown, not partitioned.
    void setSizesUnknown() { m_graph.m_sizesKnown = false; }
    void setStaticLifetimeInputIndices(std::vector<int> indices)
    {
        m_graph.m_staticLifetimeInputs = std::move(indices);
    }

    /// Validates the whole graph, derives users and the output lists, and hands it over.
    JointGraph finish();

    /// A finished graph with the provenance of a file that holds more than one graph (a TORCH_TRACE
    /// log): its source, PyTorch's decision recorded beside it and the static-lifetime inputs the
    /// log names elsewhere. The nodes are left as they are.
    static JointGraph withProvenance(JointGraph graph, GraphSource source,
        std::map<std::string, RecordedPartition> recorded, std::string recordedTorchVersion,
        std::vector<int> staticLifetimeInputs);
    /// The graph with its inputs' names in the model (SourceText::inputName), by node name; names of
    /// nodes that are not placeholders are ignored.
    static JointGraph withInputNames(JointGraph graph, const std::map<std::string, std::string>& names);

private:
    void collectInputs(const Arg& arg, std::vector<NodeId>& inputs, std::vector<char>& seen) const;
    void flattenOutputs(const Arg& arg, std::vector<NodeId>& out) const;
    /// Every tensor's bytes, and all of them together, fit the 64-bit sums the partitioners make.
    void checkTensorSizes() const;

    /// The op last found for a target, by the target's hash: call_function nodes repeat a few
    /// dozen targets, so most lookups end here instead of in the map (whose chains of strings
    /// cost gpt_n48's `partition` 1.7% in cache misses).
    struct RecentOp {
        std::uint64_t hash = 0;
        OpId id = 0;
        bool used = false;
    };

    JointGraph m_graph;
    StringMap<std::uint32_t> m_stringIndex;
    std::array<RecentOp, 64> m_recentOps {};
    int m_numFwdOutputs = -1;
};

} // namespace remat
