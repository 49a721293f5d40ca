// SPDX-License-Identifier: MIT
#include "canvas/graph_scene.h"

#include "canvas/node_tooltip.h"

#include <QGraphicsSceneHelpEvent>
#include <QGraphicsSceneMouseEvent>
#include <QGraphicsView>
#include <QTimer>
#include <QToolTip>

namespace remat::ui {

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
    m_state.outcome = std::move(outcome);
    m_state.updateGroupStats();
    repaint();
}

void GraphScene::setTags(std::vector<CheckpointPolicy> tags, std::vector<char> userTagged, bool repaintNow)
{
    m_state.tags = std::move(tags);
    m_state.userTagged = std::move(userTagged);
    m_state.updateGroupStats();
    if (repaintNow)
        repaint();
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
