// SPDX-License-Identifier: MIT
#pragma once

#include "canvas/canvas_builder.h"

#include <QGraphicsScene>

#include <memory>

namespace remat::ui {

/// The canvas scene: swaps in pictures built off-thread, and holds the paint state its items
/// share, so that recolouring after a re-partition is one state update and one repaint.
class GraphScene : public QGraphicsScene {
    Q_OBJECT
public:
    explicit GraphScene(QObject* parent = nullptr);
    ~GraphScene() override;

    const CanvasState& state() const { return m_state; }
    /// For building items: they keep this pointer and read it only when painting.
    const CanvasState* statePointer() const { return &m_state; }

    /// A new graph: drops the picture and the state of the previous one.
    void setGraph(LoadedGraphPtr graph);
    /// Shows a finished picture in place of the current one.
    void setContent(std::shared_ptr<CanvasContent> content);
    bool hasContent() const { return m_content != nullptr; }
    const ViewGraph* view() const { return m_content ? m_content->view.get() : nullptr; }
    QRectF layoutBounds() const;
    /// The shown picture's layout, kept alive for readers on other threads (the overview map).
    std::shared_ptr<const LayoutResult> sharedLayout() const;

    /// The box showing a node (its own, or its collapsed group's); null when not shown.
    BoxItem* boxForNode(NodeId n) const;
    BoxItem* boxForViewItem(int item) const;
    ClusterItem* clusterForGroup(int group) const;
    std::size_t boxCount() const { return m_content ? m_content->boxes.size() : 0; }

    void setOutcome(PartitionOutcomePtr outcome);
    /// The tag in force per node, and whether the user set it. Without `repaint`, the caller
    /// repaints later (see GraphCanvas::updateTags).
    void setTags(std::vector<CheckpointPolicy> tags, std::vector<char> userTagged, bool repaint = true);
    /// Repaints everything from the current state.
    void repaint();
    /// Repaints what setTags(…, false) changed.
    void repaintPending();
    /// Boxes and edges the last recolour (setOutcome, setTags) repainted; kWholeScene when it
    /// repainted everything.
    static constexpr std::size_t kWholeScene = ~std::size_t(0);
    std::size_t lastRecolouredItems() const { return m_lastRecoloured; }
    void setPalette(const CanvasPalette& palette);
    void setCompareWithReference(bool compare);
    /// Colours nodes by what two plans save (per node: CanvasState::PlanSide); empty turns it off.
    void setPlanComparison(std::vector<std::uint8_t> sides);
    /// Colours nodes by their device partition (-1: none); empty turns it off.
    void setDevicePartitions(std::vector<int> partitionOfNode);
    /// Flashes these nodes (and the groups holding them) for a moment: what a what-if changes.
    void flashNodes(const std::vector<NodeId>& nodes);
    /// Highlights the producers and consumers of these view items (empty: none).
    void setFocusItems(const std::vector<int>& items);

Q_SIGNALS:
    void groupExpandRequested(int group);
    void groupCollapseRequested(int group);
    /// The colours changed (for the overview map).
    void appearanceChanged();
    /// Only these areas changed colour (for the overview map).
    void areasRecoloured(const QList<QRectF>& areas);

protected:
    void helpEvent(QGraphicsSceneHelpEvent* event) override;
    void mouseDoubleClickEvent(QGraphicsSceneMouseEvent* event) override;

private:
    QString toolTipFor(QGraphicsItem* item) const;
    /// Repaints the boxes of the nodes marked in `changed`, the group boxes whose summary
    /// differs from `statsBefore`, and the edges leaving changed nodes; everything when that is
    /// most of the picture. `repaintNow` false: only the state changed, the caller repaints.
    void repaintChanged(const std::vector<char>& changed, const std::vector<GroupStats>& statsBefore, bool repaintNow);

    CanvasState m_state;
    std::shared_ptr<CanvasContent> m_content;
    std::vector<int> m_focusItems;
    int m_flashGeneration = 0; ///< a newer flash outlives the timer of an older one
    std::size_t m_lastRecoloured = 0;
    QList<QRectF> m_pendingAreas; ///< areas setTags changed that wait for the caller's repaint
    bool m_pendingWhole = false;  ///< setTags changed too much: the next repaint is whole
};

} // namespace remat::ui
