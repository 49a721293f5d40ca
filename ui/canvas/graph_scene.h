// SPDX-License-Identifier: MIT
#pragma once

#include "canvas/canvas_builder.h"

#include <QGraphicsScene>
#include <QTimer>

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
    /// Shows a finished picture in place of the current one. Lookups (boxForNode, …) answer for
    /// it at once; its items join the scene over several event-loop turns, about kSliceMs of work
    /// each, after the previous picture's items have been deleted the same way (no longer painted
    /// or hit meanwhile). Nothing is painted until filled() says all are in: painting a picture
    /// that grows each turn costs more than adding it.
    void setContent(std::shared_ptr<CanvasContent> content);
    bool hasContent() const { return m_content != nullptr; }
    /// Items of an earlier picture are still being deleted, or this one's still being added.
    bool isSwapping() const { return !m_retired.empty() || isFilling(); }
    /// The current picture's items are not all in the scene yet.
    bool isFilling() const { return m_content && m_itemsShown < m_content->itemCount; }
    /// Only a replaced picture's items are in the scene (being deleted): nothing to paint.
    bool isClearing() const { return !m_retired.empty(); }
    /// The longest a turn of swapping pictures works on the GUI thread (a frame at 60 Hz is 16 ms;
    /// Qt indexes and paints what was added after it).
    static constexpr double kSliceMs = 8;
    /// The item index's depth, whatever the picture's size (see the constructor).
    static constexpr int kBspTreeDepth = 12;
    /// Event-loop turns the current picture took to fill (1: all at once, in setContent).
    int fillTurns() const { return m_fillTurns; }
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
    /// Whether the last recolour changed anything a view shows: if not, no view repaints for it.
    bool lastRecolourInView() const { return m_lastRecolourInView; }
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
    /// Every item of the picture setContent gave is in the scene, the replaced ones' gone (not
    /// emitted when setContent managed it at once: isSwapping() says).
    void filled();
    /// The scene rect is the new picture's (in setContent, or once the replaced picture's items
    /// are gone): place the view on it.
    void pictureRectSet();
    /// Of the picture being filled, this share (0-1000) is in the scene.
    void fillProgress(int permille);
    void groupExpandRequested(int group);
    void groupCollapseRequested(int group);
    /// The colours changed (for the overview map).
    void appearanceChanged();
    /// Only these areas changed colour (for the overview map).
    void areasRecoloured(const QList<QRectF>& areas);
    /// The marks against PyTorch's recorded decision came or went (for the legend).
    void referenceMarksChanged(bool shown);

protected:
    void helpEvent(QGraphicsSceneHelpEvent* event) override;
    void mousePressEvent(QGraphicsSceneMouseEvent* event) override;
    void mouseDoubleClickEvent(QGraphicsSceneMouseEvent* event) override;

private:
    /// Takes the shown picture's items out of use; they are deleted a few chunks per turn.
    void retirePicture();
    /// One turn of swapping: deletes retired chunks, then adds the current picture's, for at
    /// most `budgetMs`; schedules the next turn while work is left.
    void swapSome(double budgetMs);
    /// Sets the scene rect around m_content's picture (pictureRectSet()).
    void setPictureRect();
    /// Has Qt index the items it has not yet (any query does).
    void indexNow();
    QString toolTipFor(QGraphicsItem* item) const;
    bool inSomeView(const QRectF& area) const;
    /// Repaints the boxes of the nodes marked in `changed`, the group boxes whose summary
    /// differs from `statsBefore`, and the edges leaving changed nodes; everything when that is
    /// most of the picture. `repaintNow` false: only the state changed, the caller repaints.
    void repaintChanged(
        const std::vector<char>& changed, const std::vector<GroupStats>& statsBefore, bool repaintNow);

    CanvasState m_state;
    std::shared_ptr<CanvasContent> m_content;
    std::size_t m_itemsShown = 0; ///< of m_content's items, those in the scene
    int m_fillTurns = 0;
    /// Chunks of replaced pictures, to delete: in the scene (which owns them until then) or never
    /// added (ours).
    std::vector<CanvasRoot*> m_retired;
    std::vector<CanvasRoot*> m_shownChunks; ///< m_content's first chunks, in the scene
    bool m_hasPictureRect = false; ///< the scene rect is m_content's
    QTimer m_swapTurn;
    std::vector<int> m_focusItems;
    int m_flashGeneration = 0; ///< a newer flash outlives the timer of an older one
    std::size_t m_lastRecoloured = 0;
    bool m_lastRecolourInView = false;
    QList<QRectF> m_pendingAreas; ///< areas setTags changed that wait for the caller's repaint
    bool m_pendingWhole = false; ///< setTags changed too much: the next repaint is whole
};

} // namespace remat::ui
