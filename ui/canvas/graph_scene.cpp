// SPDX-License-Identifier: MIT
#include "canvas/graph_scene.h"

#include "canvas/node_tooltip.h"

#include <QGraphicsSceneHelpEvent>
#include <QGraphicsSceneMouseEvent>
#include <QGraphicsView>
#include <QTimer>
#include <QToolTip>

namespace remat::ui {
namespace {

/// Whether a group's box would look the same with either summary.
bool sameSummary(const GroupStats& a, const GroupStats& b)
{
    return a.nodes == b.nodes && a.saved == b.saved && a.recomputed == b.recomputed && a.banned == b.banned
        && a.tagged == b.tagged && a.referenceOnly == b.referenceOnly && a.onlyA == b.onlyA && a.onlyB == b.onlyB
        && a.flashing == b.flashing && a.perDevicePartition == b.perDevicePartition && a.savedBytes == b.savedBytes
        && a.savedShare == b.savedShare;
}

} // namespace

GraphScene::GraphScene(QObject* parent)
    : QGraphicsScene(parent)
{
    setItemIndexMethod(BspTreeIndex); // static layout: fast hit tests and exposed-area queries
    setBackgroundBrush(Qt::white);
}

GraphScene::~GraphScene()
{
    // Items reference m_state: delete them while it is alive. Deleting selected items emits
    // selectionChanged, which must not reach listeners that are already gone.
    blockSignals(true);
    clear();
}

void GraphScene::setGraph(LoadedGraphPtr graph)
{
    clearSelection();
    clear();
    m_content.reset();
    m_focusItems.clear();
    const CanvasPalette palette = m_state.palette;
    const bool compare = m_state.compareWithReference;
    m_state = CanvasState{};
    m_state.palette = palette;
    m_state.compareWithReference = compare;
    m_state.graph = std::move(graph);
    if (m_state.graph) {
        m_state.tags.assign(m_state.graph->size(), CheckpointPolicy::None);
        m_state.userTagged.assign(m_state.graph->size(), 0);
        m_state.updateGroupStats();
    }
}

void GraphScene::setContent(std::shared_ptr<CanvasContent> content)
{
    clearSelection();
    clear(); // the previous picture's items
    m_content = std::move(content);
    if (!m_content)
        return;
    m_state.view = m_content->view;
    m_state.itemHighlight.assign(m_content->view->items.size(), Highlight::None);
    m_state.anyHighlight = false;
    m_focusItems.clear();
    addItem(m_content->root.release()); // the scene owns the items from here on
    const QRectF bounds = m_content->layout.bounds;
    const double margin = std::max(60.0, std::max(bounds.width(), bounds.height()) * 0.03);
    setSceneRect(bounds.adjusted(-margin, -margin, margin, margin));
    Q_EMIT appearanceChanged();
}

QRectF GraphScene::layoutBounds() const
{
    return m_content ? m_content->layout.bounds : QRectF();
}

std::shared_ptr<const LayoutResult> GraphScene::sharedLayout() const
{
    // Shares the content's ownership: the layout lives as long as a reader holds it.
    return m_content ? std::shared_ptr<const LayoutResult>(m_content, &m_content->layout) : nullptr;
}

BoxItem* GraphScene::boxForNode(NodeId n) const
{
    if (!m_content || n < 0 || static_cast<std::size_t>(n) >= m_content->view->itemOfNode.size())
        return nullptr;
    return boxForViewItem(m_content->view->itemOfNode[static_cast<std::size_t>(n)]);
}

BoxItem* GraphScene::boxForViewItem(int item) const
{
    if (!m_content || item < 0 || static_cast<std::size_t>(item) >= m_content->boxes.size())
        return nullptr;
    return m_content->boxes[static_cast<std::size_t>(item)];
}

ClusterItem* GraphScene::clusterForGroup(int group) const
{
    if (!m_content || group < 0 || static_cast<std::size_t>(group) >= m_content->view->clusterOfGroup.size())
        return nullptr;
    const int c = m_content->view->clusterOfGroup[static_cast<std::size_t>(group)];
    return c >= 0 && static_cast<std::size_t>(c) < m_content->clusters.size() ? m_content->clusters[static_cast<std::size_t>(c)] : nullptr;
}

void GraphScene::setOutcome(PartitionOutcomePtr outcome)
{
    // Only what a decision changed is repainted: at 17k boxes a whole repaint of a view zoomed
    // out, and of the overview map, costs more than finding the few that differ.
    std::vector<char> changed;
    if (m_state.graph) {
        changed.assign(m_state.graph->size(), 0);
        const PartitionOutcomePtr before = m_state.outcome;
        for (std::size_t n = 0; n < changed.size(); ++n) {
            const auto id = static_cast<NodeId>(n);
            changed[n] = (before ? before->flagsOf(id) : 0) != (outcome ? outcome->flagsOf(id) : 0);
        }
    }
    m_state.outcome = std::move(outcome);
    std::vector<GroupStats> statsBefore = std::move(m_state.groupStats);
    m_state.updateGroupStats();
    repaintChanged(changed, statsBefore, true);
}

void GraphScene::setTags(std::vector<CheckpointPolicy> tags, std::vector<char> userTagged, bool repaintNow)
{
    std::vector<char> changed(tags.size(), 0);
    for (std::size_t n = 0; n < tags.size(); ++n)
        changed[n] = n >= m_state.tags.size() || m_state.tags[n] != tags[n];
    m_state.tags = std::move(tags);
    m_state.userTagged = std::move(userTagged);
    std::vector<GroupStats> statsBefore = std::move(m_state.groupStats);
    m_state.updateGroupStats();
    repaintChanged(changed, statsBefore, repaintNow);
}

void GraphScene::repaintChanged(const std::vector<char>& changed, const std::vector<GroupStats>& statsBefore, bool repaintNow)
{
    QList<QRectF> areas;
    bool whole = !m_content || statsBefore.size() != m_state.groupStats.size();
    const ViewGraph* view = m_content ? m_content->view.get() : nullptr;
    // Past this many items, one whole invalidation is cheaper than many small ones.
    const std::size_t wholeFrom = m_content ? std::max<std::size_t>(64, m_content->boxes.size() / 4) : 0;
    auto touch = [&](QGraphicsItem* item) {
        if (item && !whole) {
            areas.push_back(item->sceneBoundingRect());
            whole = static_cast<std::size_t>(areas.size()) > wholeFrom;
        }
    };
    if (!whole) {
        for (std::size_t n = 0; n < changed.size() && !whole; ++n) {
            if (changed[n] && n < view->itemOfNode.size()) {
                BoxItem* box = boxForViewItem(view->itemOfNode[n]);
                if (box && box->type() == NodeItemType)
                    touch(box); // a node in a collapsed group shows in its group's summary
            }
        }
        for (std::size_t g = 0; g < statsBefore.size() && !whole; ++g) {
            if (!sameSummary(statsBefore[g], m_state.groupStats[g]) && g < view->itemOfGroup.size())
                touch(boxForViewItem(view->itemOfGroup[g]));
        }
        // Edges take their colour from what their sources save.
        for (std::size_t e = 0; e < view->edges.size() && !whole; ++e) {
            const ViewEdge& edge = view->edges[e];
            if (edge.role == EdgeRole::Across
                && std::any_of(edge.sources.begin(), edge.sources.end(),
                    [&](NodeId n) { return static_cast<std::size_t>(n) < changed.size() && changed[static_cast<std::size_t>(n)]; }))
                touch(m_content->edges[e]);
        }
    }
    m_pendingWhole = m_pendingWhole || whole;
    m_pendingAreas.append(areas);
    if (repaintNow)
        repaintPending();
}

void GraphScene::repaintPending()
{
    if (m_pendingWhole) {
        m_lastRecoloured = kWholeScene;
        repaint();
    } else {
        m_lastRecoloured = static_cast<std::size_t>(m_pendingAreas.size());
        for (const QRectF& area : std::as_const(m_pendingAreas))
            update(area);
        if (!m_pendingAreas.isEmpty())
            Q_EMIT areasRecoloured(m_pendingAreas);
    }
    m_pendingAreas.clear();
    m_pendingWhole = false;
}

void GraphScene::setPalette(const CanvasPalette& palette)
{
    m_state.palette = palette;
    repaint();
}

void GraphScene::setCompareWithReference(bool compare)
{
    m_state.compareWithReference = compare;
    repaint();
}

void GraphScene::setPlanComparison(std::vector<std::uint8_t> sides)
{
    m_state.planComparison = std::move(sides);
    m_state.updateGroupStats();
    repaint();
    Q_EMIT appearanceChanged();
}

void GraphScene::setDevicePartitions(std::vector<int> partitionOfNode)
{
    m_state.devicePartition = std::move(partitionOfNode);
    m_state.updateGroupStats();
    repaint();
    Q_EMIT appearanceChanged();
}

void GraphScene::flashNodes(const std::vector<NodeId>& nodes)
{
    if (!m_state.graph)
        return;
    m_state.flashing.assign(m_state.graph->size(), 0);
    for (NodeId n : nodes)
        m_state.flashing[static_cast<std::size_t>(n)] = 1;
    m_state.updateGroupStats();
    repaint();
    constexpr int kFlashMs = 1600;
    const int generation = ++m_flashGeneration;
    QTimer::singleShot(kFlashMs, this, [this, generation] {
        if (generation != m_flashGeneration)
            return;
        m_state.flashing.clear();
        m_state.updateGroupStats();
        repaint();
    });
}

void GraphScene::setFocusItems(const std::vector<int>& items)
{
    if (items == m_focusItems)
        return;
    m_focusItems = items;
    std::fill(m_state.itemHighlight.begin(), m_state.itemHighlight.end(), Highlight::None);
    m_state.anyHighlight = false;
    if (m_content && !items.empty()) {
        auto& h = m_state.itemHighlight;
        for (int item : items) {
            if (static_cast<std::size_t>(item) < h.size())
                h[static_cast<std::size_t>(item)] = Highlight::Focus;
        }
        for (const ViewEdge& e : m_content->view->edges) {
            const auto from = static_cast<std::size_t>(e.from);
            const auto to = static_cast<std::size_t>(e.to);
            if (h[to] == Highlight::Focus && h[from] == Highlight::None)
                h[from] = Highlight::Producer;
            else if (h[from] == Highlight::Focus && h[to] == Highlight::None)
                h[to] = Highlight::Consumer;
        }
        m_state.anyHighlight = true;
    }
    update();
}

void GraphScene::repaint()
{
    // One invalidation for the whole scene: views repaint only what is exposed.
    m_pendingAreas.clear();
    m_pendingWhole = false;
    update();
    Q_EMIT appearanceChanged();
}

QString GraphScene::toolTipFor(QGraphicsItem* item) const
{
    if (!item || !m_state.graph)
        return {};
    if (auto* node = qgraphicsitem_cast<NodeItem*>(item))
        return nodeToolTip(m_state, node->node());
    if (auto* group = qgraphicsitem_cast<GroupItem*>(item))
        return groupToolTip(m_state, group->group());
    if (auto* edge = qgraphicsitem_cast<EdgeItem*>(item))
        return edgeToolTip(m_state, edge->viewEdge());
    if (auto* cluster = qgraphicsitem_cast<ClusterItem*>(item))
        return groupToolTip(m_state, cluster->group()) + tr("<br><i>Double-click the title to collapse.</i>");
    return {};
}

void GraphScene::helpEvent(QGraphicsSceneHelpEvent* event)
{
    // Tooltips are composed when asked, so they always show the latest partition.
    QGraphicsItem* item = nullptr;
    const QList<QGraphicsItem*> hits = items(event->scenePos(), Qt::IntersectsItemShape, Qt::DescendingOrder,
                                             views().isEmpty() ? QTransform() : views().first()->transform());
    for (QGraphicsItem* hit : hits) {
        if (hit->type() >= NodeItemType && hit->type() <= ClusterItemType) {
            item = hit;
            break;
        }
    }
    const QString text = toolTipFor(item);
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(event->screenPos(), text, event->widget());
    event->setAccepted(!text.isEmpty());
}

void GraphScene::mouseDoubleClickEvent(QGraphicsSceneMouseEvent* event)
{
    const QList<QGraphicsItem*> hits = items(event->scenePos());
    for (QGraphicsItem* hit : hits) {
        if (!hit)
            continue;
        if (auto* group = qgraphicsitem_cast<GroupItem*>(hit)) {
            Q_EMIT groupExpandRequested(group->group());
            return;
        }
        if (auto* cluster = qgraphicsitem_cast<ClusterItem*>(hit)) {
            if (cluster->headerRect().contains(event->scenePos())) {
                Q_EMIT groupCollapseRequested(cluster->group());
                return;
            }
        }
        if (hit->type() == NodeItemType)
            break;
    }
    QGraphicsScene::mouseDoubleClickEvent(event);
}

} // namespace remat::ui
