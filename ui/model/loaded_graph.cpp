// SPDX-License-Identifier: MIT
#include "model/loaded_graph.h"

#include "analysis/tensor_size.h"
#include "model/graph_grouping.h"
#include "model/node_text.h"

#include <QElapsedTimer>
#include <QFileInfo>

#include <future>

namespace remat::ui {

QSizeF BoxSizeCache::size(NodeId n, std::size_t nodeCount, const std::function<QSizeF()>& measure) const
{
    const std::lock_guard lock(m_mutex);
    if (m_sizes.size() != nodeCount)
        m_sizes.assign(nodeCount, QSizeF());
    QSizeF& size = m_sizes[static_cast<std::size_t>(n)];
    if (!size.isValid())
        size = measure();
    return size;
}

QString exportBaseName(const LoadedGraph& graph)
{
    QString base = QFileInfo(graph.path).completeBaseName();
    if (!graph.traceGraph.isEmpty())
        base += QLatin1Char('_')
            + QString(graph.traceGraph)
                  .replace(QLatin1Char('/'), QLatin1Char('_'))
                  .replace(QLatin1Char(':'), QLatin1Char('_'));
    return base;
}

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
    // The labels do not depend on the grouping: on a big graph they are formatted on a second
    // thread meanwhile, so that the summary shows sooner.
    auto formatLabels = [&loaded, &g] {
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
    };
    constexpr std::size_t kLabelsOnTheirOwnThread = 20000;
    std::future<void> labels;
    if (g.size() >= kLabelsOnTheirOwnThread)
        labels = std::async(std::launch::async, formatLabels);
    else
        formatLabels();
    loaded->regions = computeRegions(g);
    loaded->groups = groupGraph(g, loaded->regions);
    if (labels.valid())
        labels.get();
    loaded->analysisSeconds = static_cast<double>(timer.nsecsElapsed()) * 1e-9;
    return loaded;
}

} // namespace remat::ui
