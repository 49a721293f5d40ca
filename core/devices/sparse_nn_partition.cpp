// SPDX-License-Identifier: MIT
// sparse_nn mode (recommendation models, equal devices): embedding and dense regions get
// partitions of their own, merged by size afterwards; each embedding partition gets a device and
// the dense partitions are placed on all of those.
#include "devices/accelerator_partitioner.h"
#include "devices/node_error.h"
#include "devices/partition_ops.h"
#include "graph/error.h"

#include <algorithm>

namespace remat::devices {
namespace {

/// A call_module node is an embedding when any module on its path prints as one.
bool isEmbeddingNode(NodeId n, const SizedGraph& graph)
{
    if (graph.graph().graph().node(n).op != NodeOp::CallModule)
        return false;
    const auto path = graph.modulePath(n);
    return std::any_of(path.begin(), path.end(),
        [](const ModuleInfo* m) { return m->repr.find("Embedding") != std::string::npos; });
}

std::int64_t mergedMemBytes(const Partition& a, const Partition& b, const SizedGraph& graph)
{
    NodeSet nodes = a.nodes;
    nodes.insert(b.nodes.begin(), b.nodes.end());
    std::int64_t bytes = 0;
    for (NodeId n : nodes)
        bytes += graph.extraSizeOf(n, nodes);
    return bytes;
}

} // namespace

void AcceleratorPartitioner::sparseNnPartition(std::int64_t availableMemBytes)
{
    PartitionList embedding, dense;
    bool inEmbeddingRegion = false;
    auto close = [&](const PartitionPtr& partition) {
        (inEmbeddingRegion ? embedding : dense).push_back(partition);
    };

    PartitionPtr partition = createPartition();
    for (NodeId n : m_fwd.nodes()) {
        if (!m_fwd.isOp(n))
            continue;
        if (isEmbeddingNode(n, m_graph) != inEmbeddingRegion) {
            if (partition->usedMemBytes != 0) {
                close(partition);
                partition = createPartition();
            }
            inEmbeddingRegion = !inEmbeddingRegion;
        }
        if (m_graph.extraSizeOf(n, partition->nodes) + partition->usedMemBytes > availableMemBytes) {
            close(partition);
            partition = createPartition();
            if (m_graph.extraSizeOf(n, partition->nodes) > availableMemBytes)
                throw NodeError(m_fwd.target(n) + "is too large to fit into a device", n);
        }
        partition->addNode(n, m_graph);
    }
    close(partition);
    setParentsAndChildren(m_partitions, m_fwd);

    // Merge the smallest partition of a kind into the largest one of the same kind whose BFS level
    // is at most one away and that still fits, until no merge is possible.
    auto combineBySize = [&](PartitionList& kind) {
        if (kind.empty())
            throw Error("sparse_nn: the module has no "
                + std::string(&kind == &embedding ? "embedding" : "non-embedding")
                + " nodes (PyTorch: IndexError: pop from empty list)");
        for (bool merged = true; merged;) {
            merged = false;
            PartitionList sorted = kind;
            std::stable_sort(sorted.begin(), sorted.end(), [](const PartitionPtr& a, const PartitionPtr& b) {
                return a->usedMemBytes < b->usedMemBytes;
            });
            assignBfsLevels(m_partitions);
            const PartitionPtr smallest = sorted.front();
            for (auto it = sorted.rbegin(); it != sorted.rend() - 1; ++it) {
                const PartitionPtr other = *it;
                if (std::abs(smallest->bfsLevel - other->bfsLevel) > 1
                    || mergedMemBytes(*other, *smallest, m_graph) > availableMemBytes)
                    continue;
                combineTwoPartitions(other, smallest, m_partitions, m_graph);
                std::erase(kind, smallest);
                std::erase(kind, other);
                kind.push_back(m_partitions.back());
                merged = true;
                break;
            }
        }
    };
    combineBySize(dense);
    combineBySize(embedding);

    std::int64_t denseBytes = 0;
    for (const auto& p : dense)
        denseBytes += p->usedMemBytes;
    const auto& devices = m_config.devices;
    if (embedding.size() > devices.size())
        throw Error("Need " + std::to_string(embedding.size()) + " devices, but only "
            + std::to_string(devices.size()) + " provided");
    std::vector<int> occupied;
    for (std::size_t i = 0; i < embedding.size(); ++i) {
        if (denseBytes + embedding[i]->usedMemBytes > availableMemBytes)
            throw Error("partition_" + std::to_string(embedding[i]->id)
                + "(embedding partition) and non embedding partitions can not fit into one device");
        embedding[i]->logicalDeviceIds = {devices[i].logicalId};
        occupied.push_back(devices[i].logicalId);
    }
    for (const auto& p : dense)
        p->logicalDeviceIds = occupied;
    m_nodeToPartition = nodeToPartitionMap(m_partitions);
}

} // namespace remat::devices
