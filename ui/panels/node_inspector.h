// SPDX-License-Identifier: MIT
#pragma once

#include <QTextBrowser>
#include <QTimer>

namespace remat::ui {

class GraphDocument;
class GraphScene;
class NodeSelection;

/// Everything about the selected node (or group): op, args, value, tags, and the partitioner's
/// decision with its reason. Links walk to producers and consumers.
class NodeInspector : public QTextBrowser {
    Q_OBJECT
public:
    NodeInspector(GraphDocument* document, GraphScene* scene, NodeSelection* selection, QWidget* parent = nullptr);

    void refresh();
    /// Refreshes once the event loop is free: the canvas repaints first after a re-partition.
    void scheduleRefresh();

private:
    GraphDocument* m_document;
    GraphScene* m_scene;
    NodeSelection* m_selection;
    std::pair<int, int> m_shown{-1, -1};
    QTimer m_refreshTimer;
};

} // namespace remat::ui
