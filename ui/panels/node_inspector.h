// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/plan_analyst.h"

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
    NodeInspector(GraphDocument* document, GraphScene* scene, NodeSelection* selection, PlanAnalyst* analyst,
        QWidget* parent = nullptr);

    void refresh();
    /// The selected node's what-if, once computed (null before).
    NodeAnalysisPtr analysis() const { return m_analysis; }
    /// Applies the what-if's flip as a tag (undoable), as the "Apply" link does.
    void applyFlip();
    /// Refreshes once the event loop is free: the canvas repaints first after a re-partition.
    void scheduleRefresh();

Q_SIGNALS:
    void analysisShown();

private:
    void requestAnalysis(NodeId n);
    void onAnalysed(const NodeAnalysisPtr& analysis);

    GraphDocument* m_document;
    GraphScene* m_scene;
    NodeSelection* m_selection;
    PlanAnalyst* m_analyst;
    std::pair<int, int> m_shown {-1, -1};
    QString m_reportHtml; ///< the node's report without the what-if
    NodeAnalysisPtr m_analysis; ///< for the node shown, when it matches the current request
    std::optional<PlanRequest> m_requested;
    NodeId m_requestedNode = kNoNode;
    QTimer m_refreshTimer;
};

} // namespace remat::ui
