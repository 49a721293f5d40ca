// SPDX-License-Identifier: MIT
#pragma once

#include "model/graph_regions.h"
#include "model/group_tree.h"

#include <QMetaType>
#include <QSizeF>
#include <QString>

#include <functional>
#include <memory>
#include <mutex>

namespace remat::ui {

/// The texts a node box shows, formatted once per graph.
struct NodeLabel {
    QString name;
    QString op;
    QString value; ///< "[4, 64, 128] f32"
    QString size; ///< "128.0 KiB", empty when the node has no value
};

/// The canvas box size of each node, measured once per graph as views first show the node:
/// shaping the label texts is most of the cost of a big picture's layout request.
class BoxSizeCache {
public:
    /// The node's size, from `measure` the first time it is asked for. Thread-safe.
    QSizeF size(NodeId n, std::size_t nodeCount, const std::function<QSizeF()>& measure) const;

private:
    mutable std::mutex m_mutex;
    mutable std::vector<QSizeF> m_sizes; // invalid until measured
};

/// A graph as the app holds it after opening: the core's graph plus everything the views derive
/// from it that never changes while it is open. Immutable, shared between threads.
struct LoadedGraph {
    JointGraph graph;
    QString path; ///< as opened; ":/..." for the bundled sample
    QString displayName; ///< file name, with the compile id for a graph of a TORCH_TRACE log
    /// The compile id chosen from a TORCH_TRACE log with several joint graphs; empty otherwise.
    QString traceGraph;
    GraphRegions regions;
    GroupTree groups;
    std::vector<NodeLabel> labels;
    std::vector<std::int64_t> bytes; ///< value size per node (numel x itemsize over its tensors)
    double loadSeconds = 0;
    double analysisSeconds = 0;
    BoxSizeCache boxSizes;

    std::size_t size() const { return graph.size(); }
    const NodeLabel& label(NodeId n) const { return labels[static_cast<std::size_t>(n)]; }
    Region region(NodeId n) const { return regions.of(n); }
    std::int64_t bytesOf(NodeId n) const { return bytes[static_cast<std::size_t>(n)]; }
};

using LoadedGraphPtr = std::shared_ptr<const LoadedGraph>;

/// The start of the names the exports suggest: the file's base name, and the compile id of a
/// TORCH_TRACE log's graph ("graph_break_1_0"), so that two graphs of one log do not suggest one name.
QString exportBaseName(const LoadedGraph& graph);

/// Derives regions, groups and labels (slow part of opening, after parsing).
LoadedGraphPtr analyseGraph(
    JointGraph&& graph, const QString& path, double loadSeconds = 0, const QString& traceGraph = QString());

} // namespace remat::ui

Q_DECLARE_METATYPE(remat::ui::LoadedGraphPtr)
