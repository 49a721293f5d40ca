// SPDX-License-Identifier: MIT
#pragma once

#include "layout/layout_service.h"

#include <QElapsedTimer>
#include <QTimer>
#include <QWidget>

namespace remat::ui {

class BusyOverlay;
class CanvasLegend;
class EmptyCanvas;
class FindBar;
class GraphDocument;
class GraphScene;
class GraphView;
class NodeSelection;
class OverviewMap;

/// The central canvas: view and scene, with the find bar, overview map, legend and busy panel
/// over it. Owns what is expanded, asks the layout service for pictures, and keeps the scene in
/// step with the document (tags, partition) and the shared selection.
class GraphCanvas : public QWidget {
    Q_OBJECT
public:
    /// Graphs up to this size open fully expanded; larger ones open as a summary of groups.
    static constexpr std::size_t kExpandedUpTo = 400;

    GraphCanvas(GraphDocument* document, NodeSelection* selection, QWidget* parent = nullptr);

    GraphView* view() const { return m_view; }
    CanvasLegend* legend() const { return m_legend; }
    GraphScene* scene() const { return m_scene; }
    FindBar* findBar() const { return m_findBar; }
    BusyOverlay* busyOverlay() const { return m_busy; }
    LayoutService* layoutService() const { return m_layout; }
    /// Shown instead of the picture while no graph is open.
    EmptyCanvas* emptyState() const { return m_empty; }

    /// Starts showing a new graph (its first picture arrives with pictureReady).
    void showGraph();
    bool isExpanded(int group) const;
    void setExpanded(int group, bool expanded);
    void expandAll();
    void collapseAll();
    /// Makes a node visible (expanding its groups), selects it and centres on it.
    void revealNode(NodeId n);
    bool isLayoutBusy() const { return m_layout->isBusy(); }
    /// A layout runs, or the overview map is about to re-render.
    bool hasPendingWork() const;
    void cancelLayout();

    void setOverviewVisible(bool visible);
    void setLegendVisible(bool visible);
    bool isOverviewVisible() const;
    bool isLegendVisible() const;

Q_SIGNALS:
    void pictureReady(const remat::ui::CanvasTimings& timings);
    void layoutFailed(const QString& message);
    void layoutStarted(const QString& what);
    /// The partition's colours are on the canvas (emitted right after the repaint was scheduled).
    void recoloured();
    void contextMenuRequested(const QPoint& globalPos);

protected:
    void resizeEvent(QResizeEvent* event) override;
    /// Keeps the empty-state panel over the view's viewport as it resizes.
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void requestLayout(const QString& what);
    void onContentReady(quint64 ticket, std::shared_ptr<CanvasContent> content, const CanvasTimings& timings);
    /// The scene rect is the new picture's: the view goes where it should look.
    void placePicture();
    /// Every item of the new picture is in the scene: the selection goes onto it, pictureReady.
    void finishPicture();
    void onSceneSelectionChanged();
    void onSelectionChanged(int origin);
    /// `followCollapse` (after a new picture): nodes now hidden in a collapsed group are
    /// selected as that group, and groups no longer shown as boxes leave the selection.
    void applySelectionToScene(bool centre, bool followCollapse);
    /// `immediately`: repaint now; else within kTagRepaintMs, or with the new partition.
    void updateTags(bool immediately);
    void placeOverlays();

    GraphDocument* m_document;
    NodeSelection* m_selection;
    GraphScene* m_scene;
    GraphView* m_view;
    FindBar* m_findBar;
    OverviewMap* m_overview;
    CanvasLegend* m_legend;
    BusyOverlay* m_busy;
    EmptyCanvas* m_empty;
    LayoutService* m_layout;

    std::vector<char> m_expanded;
    quint64 m_ticket = 0;
    bool m_firstPicture = true;
    NodeId m_revealAfterLayout = kNoNode;
    int m_anchorGroup = -1; ///< centre on this group's box or frame after the next layout
    bool m_syncingSelection = false;
    QTimer* m_tagRepaint; ///< shows new tag chips unless the new partition repaints first
    CanvasTimings m_pictureTimings; ///< of the picture being added to the scene
    double m_zoomBefore = 1; ///< the zoom before the picture being added
    bool m_centreWhenFilled = false; ///< the selection changed while the picture was added
};

} // namespace remat::ui
