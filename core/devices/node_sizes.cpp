// SPDX-License-Identifier: MIT
#include "devices/node_sizes.h"

#include "devices/node_error.h"

namespace remat::devices {

SizedGraph::SizedGraph(const ForwardGraph& graph, const std::map<std::string, ModuleInfo>& modules)
    : m_graph(graph)
    , m_modules(modules)
    , m_sizes(graph.graph().size())
{
    for (NodeId n : graph.nodes()) {
        const Node& node = graph.graph().node(n);
        if (!node.hasTensorMeta())
            throw NodeError("Node " + node.name
                    + " has no tensor metadata associated with it! Check that shape propagation has run.",
                n);
        const TensorMeta& meta = node.tensor();
        std::int64_t elements = meta.numel();
        if (node.op == NodeOp::CallModule) {
            const auto it = modules.find(graph.target(n));
            if (it == modules.end())
                throw Error("node \"" + node.name + "\" calls module \"" + graph.target(n)
                    + "\", which the graph's \"modules\" table does not list");
            elements += it->second.parameterElements;
        }
        // Parameters are counted at the output's element size, as PyTorch does.
        const std::int64_t itemSize = dtypeItemSize(meta.dtype);
        m_sizes[static_cast<std::size_t>(n)] = SizeBytes {meta.numel() * itemSize, elements * itemSize};
    }
}

const SizeBytes& SizedGraph::size(NodeId n) const
{
    const auto& size = m_sizes[static_cast<std::size_t>(n)];
    if (!size)
        throw Error("node has no size_bytes attr");
    return *size;
}

std::int64_t SizedGraph::totalSize() const
{
    std::int64_t total = 0;
    for (NodeId n : m_graph.nodes())
        total += size(n).totalSize;
    return total;
}

std::int64_t SizedGraph::extraSizeOf(NodeId n, const NodeSet& nodes) const
{
    std::int64_t extra = 0;
    for (NodeId input : m_graph.inputs(n)) {
        if (!nodes.contains(input))
            extra += size(input).outputSize;
    }
    return extra + size(n).totalSize;
}

std::vector<const ModuleInfo*> SizedGraph::modulePath(NodeId n) const
{
    std::vector<const ModuleInfo*> path;
    const std::string& target = m_graph.target(n);
    for (std::size_t from = 0;;) {
        const std::size_t dot = target.find('.', from);
        const std::string prefix = target.substr(0, dot);
        const auto it = m_modules.find(prefix);
        if (it == m_modules.end())
            throw Error("node \"" + m_graph.name(n) + "\" calls module \"" + target
                + "\", but the graph's \"modules\" " + "table has no \"" + prefix
                + "\" (re-export the graph with samples/export_forward_graph.py)");
        path.push_back(&it->second);
        if (dot == std::string::npos)
            break;
        from = dot + 1;
    }
    return path;
}

} // namespace remat::devices
