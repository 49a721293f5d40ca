// SPDX-License-Identifier: MIT
#include "graph/joint_graph_builder.h"

#include "graph/error.h"
#include "graph/size_limits.h"

#include <algorithm>

namespace remat {

JointGraphBuilder::JointGraphBuilder()
{
    // Slot 0 is an empty list, slot 1 an empty dict: the args/kwargs of nodes that have none.
    m_graph.m_args.resize(2);
    m_graph.m_args[0].kind = ArgKind::List;
    m_graph.m_args[1].kind = ArgKind::Dict;
}

std::uint32_t JointGraphBuilder::reserveArgs(std::uint32_t count)
{
    const auto first = static_cast<std::uint32_t>(m_graph.m_args.size());
    m_graph.m_args.resize(m_graph.m_args.size() + count);
    return first;
}

std::uint32_t JointGraphBuilder::intern(std::string_view text)
{
    if (const auto it = m_stringIndex.find(text); it != m_stringIndex.end())
        return it->second;
    const auto index = static_cast<std::uint32_t>(m_graph.m_strings.size());
    m_graph.m_strings.emplace_back(text);
    m_stringIndex.emplace(std::string(text), index);
    return index;
}

OpId JointGraphBuilder::internOp(std::string_view target)
{
    const std::uint64_t hash = hashText(target);
    RecentOp& recent = m_recentOps[hash % m_recentOps.size()];
    if (recent.used && recent.hash == hash && m_graph.m_ops[recent.id].target == target)
        return recent.id;
    OpId id = 0;
    if (const auto it = m_graph.m_opByTarget.find(target); it != m_graph.m_opByTarget.end()) {
        id = it->second;
    } else {
        id = static_cast<OpId>(m_graph.m_ops.size());
        m_graph.m_ops.push_back(describeTarget(target));
        m_graph.m_opByTarget.emplace(std::string(target), id);
    }
    recent = {hash, id, true};
    return id;
}

void JointGraphBuilder::collectInputs(
    const Arg& arg, std::vector<NodeId>& inputs, std::vector<char>& seen) const
{
    switch (arg.kind) {
    case ArgKind::Node:
        if (!seen[static_cast<std::size_t>(arg.node)]) {
            seen[static_cast<std::size_t>(arg.node)] = 1;
            inputs.push_back(arg.node);
        }
        break;
    case ArgKind::List:
    case ArgKind::Dict:
        for (const Arg& child : m_graph.children(arg))
            collectInputs(child, inputs, seen);
        break;
    default:
        break;
    }
}

NodeId JointGraphBuilder::addNode(Node node)
{
    m_graph.m_nodes.push_back(std::move(node));
    return commitNode();
}

NodeId JointGraphBuilder::commitNode()
{
    const auto id = static_cast<NodeId>(m_graph.m_nodes.size() - 1);
    if (m_graph.m_nodes.back().name.empty()) {
        m_graph.m_nodes.pop_back();
        throw Error("a node has an empty name");
    }
    // Indexed first, so that one lookup both finds a taken name and adds a new one.
    if (!m_graph.m_byName.insert(id, m_graph.m_nodes)) {
        const std::string name = std::move(m_graph.m_nodes.back().name);
        m_graph.m_nodes.pop_back();
        throw Error("node '" + name + "': a second node with this name");
    }
    const Node& added = m_graph.m_nodes.back();
    if (m_graph.m_outputNode != kNoNode) // the builder is dropped with the error: no need to undo
        throw Error("node '" + added.name + "' comes after the output node '"
            + m_graph.node(m_graph.m_outputNode).name + "'; the output node must be last");
    if (added.op == NodeOp::Output)
        m_graph.m_outputNode = id;
    return id;
}

void JointGraphBuilder::reserve(std::size_t nodes)
{
    m_graph.m_nodes.reserve(nodes);
    m_graph.m_byName.reserve(nodes);
    m_graph.m_args.reserve(8 * nodes); // joint-graph nodes average a handful of args
}

void JointGraphBuilder::addRecorded(std::string key, RecordedPartition partition)
{
    m_graph.m_recorded.insert_or_assign(std::move(key), std::move(partition));
}

JointGraph JointGraphBuilder::withProvenance(JointGraph graph, GraphSource source,
    std::map<std::string, RecordedPartition> recorded, std::string recordedTorchVersion,
    std::vector<int> staticLifetimeInputs)
{
    graph.m_source = std::move(source);
    graph.m_staticLifetimeInputs = std::move(staticLifetimeInputs);
    graph.m_recorded = std::move(recorded);
    graph.m_recordedTorchVersion = std::move(recordedTorchVersion);
    return graph;
}

JointGraph JointGraphBuilder::withInputNames(
    JointGraph graph, const std::map<std::string, std::string>& names)
{
    for (const auto& [name, inputName] : names) {
        const NodeId n = graph.find(name);
        if (n != kNoNode && graph.m_nodes[static_cast<std::size_t>(n)].op == NodeOp::Placeholder)
            graph.m_nodes[static_cast<std::size_t>(n)].meta.source.edit().inputName = inputName;
    }
    return graph;
}

RecordedPartition* JointGraphBuilder::recorded(const std::string& key)
{
    const auto it = m_graph.m_recorded.find(key);
    return it == m_graph.m_recorded.end() ? nullptr : &it->second;
}

void JointGraphBuilder::flattenOutputs(const Arg& arg, std::vector<NodeId>& out) const
{
    switch (arg.kind) {
    case ArgKind::Node:
        out.push_back(arg.node);
        break;
    case ArgKind::List:
        for (const Arg& child : m_graph.children(arg))
            flattenOutputs(child, out);
        break;
    case ArgKind::Dict: {
        const auto items = m_graph.children(arg);
        for (std::size_t i = 1; i < items.size(); i += 2)
            flattenOutputs(items[i], out);
        break;
    }
    default:
        out.push_back(kNoNode); // None, or a constant output: nothing to save or compute
        break;
    }
}

void JointGraphBuilder::checkTensorSizes() const
{
    std::int64_t total = 0;
    for (const Node& node : m_graph.m_nodes) {
        for (std::size_t i = 0; i < node.values.size(); ++i) {
            if (!node.values[i])
                continue;
            const auto where = [&] {
                return node.valueKind == ValueKind::TensorList ? "val[" + std::to_string(i) + "]"
                                                               : std::string("val");
            };
            const auto bytes = checkedTensorBytes(*node.values[i]);
            if (!bytes)
                throw Error("node '" + node.name + "': " + where() + ": the tensor "
                    + describeTensor(*node.values[i])
                    + " has a negative size or more bytes than 64 bits can count");
            if (__builtin_add_overflow(total, *bytes, &total) || total > kMaxGraphTensorBytes)
                throw Error("node '" + node.name + "': " + where() + ": the tensor "
                    + describeTensor(*node.values[i])
                    + " brings the graph's tensors above 256 TiB, more than the partitioner's weights can "
                      "count in 64 bits");
        }
    }
}

JointGraph JointGraphBuilder::finish()
{
    auto& nodes = m_graph.m_nodes;
    if (nodes.empty())
        throw Error("the graph has no nodes");
    if (m_graph.m_outputNode == kNoNode)
        throw Error("the graph has no output node (the last node must have op \"output\")");

    // Each list is allocated once at its final size: inputs through a scratch list, users
    // counted first (8.5k nodes: 20k allocations and their regrowth otherwise).
    std::vector<char> seen(nodes.size(), 0);
    std::vector<NodeId> scratch;
    std::vector<std::uint32_t> userCount(nodes.size(), 0);
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        Node& node = nodes[i];
        scratch.clear();
        collectInputs(m_graph.m_args[node.args], scratch, seen);
        collectInputs(m_graph.m_args[node.kwargs], scratch, seen);
        for (NodeId input : scratch) {
            seen[static_cast<std::size_t>(input)] = 0;
            if (static_cast<std::size_t>(input) >= i)
                throw Error("node '" + node.name + "' uses '" + nodes[static_cast<std::size_t>(input)].name
                    + "', which does not come before it; nodes must be in topological order");
            ++userCount[static_cast<std::size_t>(input)];
        }
        node.inputs.assign(scratch.begin(), scratch.end());
    }
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        nodes[i].users.clear();
        nodes[i].users.reserve(userCount[i]);
    }
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        for (NodeId input : nodes[i].inputs)
            nodes[static_cast<std::size_t>(input)].users.push_back(static_cast<NodeId>(i));
    }

    checkTensorSizes();

    const Node& output = nodes[static_cast<std::size_t>(m_graph.m_outputNode)];
    const Arg& outArgs = m_graph.m_args[output.args];
    m_graph.m_outputs.clear();
    if (outArgs.size >= 1)
        flattenOutputs(m_graph.children(outArgs)[0], m_graph.m_outputs);
    const int outputCount = static_cast<int>(m_graph.m_outputs.size());
    if (m_numFwdOutputs < 0)
        m_numFwdOutputs = m_graph.m_kind == GraphKind::Forward ? outputCount : 0;
    if (m_numFwdOutputs > outputCount)
        throw Error("num_fwd_outputs is " + std::to_string(m_numFwdOutputs) + " but the output node '"
            + output.name + "' has only " + std::to_string(outputCount) + " outputs");
    m_graph.m_numFwdOutputs = m_numFwdOutputs;

    JointGraph graph = std::move(m_graph);
    m_graph = JointGraph {};
    m_recentOps = {};
    return graph;
}

} // namespace remat
