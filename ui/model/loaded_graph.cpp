// SPDX-License-Identifier: MIT
#include "model/loaded_graph.h"

#include "analysis/tensor_size.h"
#include "model/graph_grouping.h"
#include "model/node_text.h"

#include <QElapsedTimer>
#include <QFileInfo>

namespace remat::ui {

LoadedGraphPtr analyseGraph(
    JointGraph&& graph, const QString& path, double loadSeconds, const QString& traceGraph)
{
    QElapsedTimer timer;
    timer.start();
    auto loaded = std::make_shared<LoadedGraph>();
    loaded->graph = std::move(graph);
    loaded->path = path;
    loaded->loadSeconds = loadSeconds;
    loaded->displayName = QFileInfo(path).fileName();
    loaded->traceGraph = traceGraph;
    if (!traceGraph.isEmpty())
        loaded->displayName += QStringLiteral(" [%1]").arg(traceGraph);
    const JointGraph& g = loaded->graph;
    loaded->regions = computeRegions(g);
    loaded->groups = groupGraph(g, loaded->regions);
    loaded->labels.resize(g.size());
    loaded->bytes.resize(g.size());
    for (std::size_t i = 0; i < g.size(); ++i) {
        const auto id = static_cast<NodeId>(i);
        const Node& node = g.node(id);
        NodeLabel& label = loaded->labels[i];
        label.name = QString::fromStdString(node.name);
        label.op = opLabel(g, id);
        label.value = valueSummary(node);
        loaded->bytes[i] = valueBytes(node);
        if (node.valueKind != ValueKind::None)
            label.size = formatBytes(loaded->bytes[i]);
    }
    loaded->analysisSeconds = static_cast<double>(timer.nsecsElapsed()) * 1e-9;
    return loaded;
}

} // namespace remat::ui
