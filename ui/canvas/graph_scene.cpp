// SPDX-License-Identifier: MIT
#include "canvas/graph_scene.h"

#include "canvas/node_tooltip.h"

#include <QElapsedTimer>
#include <QGraphicsSceneHelpEvent>
#include <QGraphicsSceneMouseEvent>
#include <QGraphicsView>
#include <QSignalBlocker>
#include <QTimer>
#include <QToolTip>

#include <algorithm>

namespace remat::ui {
namespace {

/// Whether a group's box would look the same with either summary.
bool sameSummary(const GroupStats& a, const GroupStats& b)
{
    return a.nodes == b.nodes && a.saved == b.saved && a.recomputed == b.recomputed && a.banned == b.banned
        && a.tagged == b.tagged && a.referenceOnly == b.referenceOnly && a.onlyA == b.onlyA
        && a.onlyB == b.onlyB && a.flashing == b.flashing && a.perDevicePartition == b.perDevicePartition
        && a.savedBytes == b.savedBytes && a.savedShare == b.savedShare;
}

} // namespace

GraphScene::GraphScene(QObject* parent)
    : QGraphicsScene(parent)
{
    setItemIndexMethod(BspTreeIndex); // static layout: fast hit tests and exposed-area queries
    // Qt's own depth, log2 of the item count, gives a 200k-item picture 2^18 leaves: a long edge
    // then sits in thousands of them, and the tree is rebuilt each time the count doubles. With
    // 2^12 leaves, Expand All on 90k nodes joins in turns of 8 ms instead of 40-70, Collapse All
    // keeps the GUI thread 54 ms instead of 120-143, and a pan's median frame is 2.3 ms, not 12-18.
    setBspTreeDepth(kBspTreeDepth);
    setBackgroundBrush(Qt::white);
    m_swapTurn.setSingleShot(true);
    m_swapTurn.setInterval(0);
    connect(&m_swapTurn, &QTimer::timeout, this, [this] {
        swapSome(kSliceMs);
        if (isFilling()) {
            Q_EMIT fillProgress(static_cast<int>(m_itemsShown * 1000 / m_content->itemCount));
        } else if (m_content && !isSwapping()) {
            Q_EMIT appearanceChanged(); // tiles drawn meanwhile are blank
            Q_EMIT filled();
        }
    });
}

GraphScene::~GraphScene()
{
    // Items reference m_state: delete them while it is alive. Deleting selected items emits
    // selectionChanged, which must not reach listeners that are already gone.
    blockSignals(true);
    // Retired chunks never added are ours; clear() deletes the scene's (dropping its index first,
    // quicker than deleting them one by one).
    for (CanvasRoot* chunk : m_retired) {
        if (!chunk->scene())
            delete chunk;
    }
    m_retired.clear();
    clear();
}

void GraphScene::setGraph(LoadedGraphPtr graph)
{
    clearSelection();
    retirePicture();
    m_focusItems.clear();
    const CanvasPalette palette = m_state.palette;
    const bool compare = m_state.compareWithReference;
    m_state = CanvasState {};
    m_state.palette = palette;
    m_state.compareWithReference = compare;
    m_state.graph = std::move(graph);
    if (m_state.graph) {
        m_state.tags.assign(m_state.graph->size(), CheckpointPolicy::None);
        m_state.userTagged.assign(m_state.graph->size(), 0);
        m_state.updateGroupStats();
    }
    swapSome(kSliceMs);
}

void GraphScene::setContent(std::shared_ptr<CanvasContent> content)
{
    clearSelection();
    retirePicture();
    m_content = std::move(content);
    m_itemsShown = 0;
    m_fillTurns = 0;
    m_hasPictureRect = false;
    if (m_content) {
        m_state.view = m_content->view;
        m_state.itemHighlight.assign(m_content->view->items.size(), Highlight::None);
        m_state.anyHighlight = false;
        m_focusItems.clear();
        Q_EMIT appearanceChanged();
    }
    swapSome(kSliceMs); // a small picture is complete on return
}

void GraphScene::setPictureRect()
{
    // Only once the replaced picture's items are gone: a new scene rect has Qt index every item
    // in the scene afresh (0.6 µs each).
    const QRectF bounds = m_content->layout.bounds;
    const double margin = std::max(60.0, std::max(bounds.width(), bounds.height()) * 0.03);
    setSceneRect(bounds.adjusted(-margin, -margin, margin, margin));
    m_hasPictureRect = true;
    Q_EMIT pictureRectSet();
}

void GraphScene::retirePicture()
{
    for (CanvasRoot* chunk : m_shownChunks) {
        chunk->retire();
        m_retired.push_back(chunk);
    }
    m_shownChunks.clear();
    if (m_content) {
        for (std::unique_ptr<CanvasRoot>& chunk : m_content->chunks) {
            if (chunk)
                m_retired.push_back(chunk.release()); // never added: deleted with the others
        }
    }
    m_content.reset();
}

void GraphScene::swapSome(double budgetMs)
{
    QElapsedTimer clock;
    clock.start();
    const auto budgetNs = static_cast<qint64>(budgetMs * 1e6);
    if (isSwapping())
        update(); // one repaint of everything, instead of Qt noting a rectangle per item
    if (!m_retired.empty()) {
        // Each selected item that goes emits selectionChanged: the canvas applies the
        // selection once the new picture is complete instead.
        const QSignalBlocker quiet(this);
        // Deleting an item Qt has not indexed yet (it indexes on a timer) searches the list of
        // all those: it indexes them first.
        indexNow();
        do { // one chunk at least: a turn always gets on
            delete m_retired.back();
            m_retired.pop_back();
        } while (!m_retired.empty() && clock.nsecsElapsed() < budgetNs);
    }
    if (m_content && m_retired.empty() && !m_hasPictureRect)
        setPictureRect(); // the canvas places the view on it now, before the visible chunks come
    if (m_retired.empty() && isFilling() && clock.nsecsElapsed() < budgetNs) {
        const QSignalBlocker quiet(this); // as above, for items selected before they came
        ++m_fillTurns;
        do {
            CanvasRoot* chunk = m_content->chunks[m_shownChunks.size()].release();
            addItem(chunk); // the scene owns it from here on
            m_shownChunks.push_back(chunk);
            m_itemsShown += chunk->itemCount();
            // Indexed now, within this turn's time: Qt would index all of a turn's items on its
            // timer right after, which costs more than adding them.
            indexNow();
        } while (isFilling() && clock.nsecsElapsed() < budgetNs);
    }
    if (isSwapping())
        m_swapTurn.start();
}

void GraphScene::indexNow()
{
    items(QRectF(sceneRect().topLeft(), QSizeF(1, 1)), Qt::IntersectsItemBoundingRect,
        static_cast<Qt::SortOrder>(-1));
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
    return c >= 0 && static_cast<std::size_t>(c) < m_content->clusters.size()
        ? m_content->clusters[static_cast<std::size_t>(c)]
        : nullptr;
}

void GraphScene::setOutcome(PartitionOutcomePtr outcome)
{
    // Only what a decision changed is repainted: at 17k boxes a whole repaint of a view zoomed
    // out, and of the overview map, costs more than finding the few that differ.
    std::vector<char> changed;
    const bool referenceBefore = m_state.showsReference();
    const bool referenceAfter = m_state.showsReference(outcome.get());
    if (m_state.graph) {
        changed.assign(m_state.graph->size(), 0);
        const PartitionOutcomePtr before = m_state.outcome;
        // When the marks against PyTorch's record come or go, a node marked as differing changes
        // though its flags do not (a saved node's yellow corner).
        const auto differs = [](std::uint16_t f) { return bool(f & Saved) != bool(f & ReferenceSaved); };
        for (std::size_t n = 0; n < changed.size(); ++n) {
            const auto id = static_cast<NodeId>(n);
            const std::uint16_t was = before ? before->flagsOf(id) : 0;
            const std::uint16_t is = outcome ? outcome->flagsOf(id) : 0;
            changed[n] = was != is || (referenceBefore != referenceAfter && (differs(was) || differs(is)));
        }
    }
    m_state.outcome = std::move(outcome);
    std::vector<GroupStats> statsBefore = std::move(m_state.groupStats);
    m_state.updateGroupStats();
    repaintChanged(changed, statsBefore, true);
    if (referenceBefore != referenceAfter)
        Q_EMIT referenceMarksChanged(referenceAfter);
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

void GraphScene::repaintChanged(
    const std::vector<char>& changed, const std::vector<GroupStats>& statsBefore, bool repaintNow)
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
                && std::any_of(edge.sources.begin(), edge.sources.end(), [&](NodeId n) {
                       return static_cast<std::size_t>(n) < changed.size()
                           && changed[static_cast<std::size_t>(n)];
                   }))
                touch(m_content->edges[e]);
        }
    }
    m_pendingWhole = m_pendingWhole || whole;
    m_pendingAreas.append(areas);
    if (repaintNow)
        repaintPending();
}

bool GraphScene::inSomeView(const QRectF& area) const
{
    const QList<QGraphicsView*> shown = views();
    return std::any_of(shown.begin(), shown.end(), [&](const QGraphicsView* view) {
        return view->isVisible()
            && view->mapToScene(view->viewport()->rect()).boundingRect().intersects(area);
    });
}

void GraphScene::repaintPending()
{
    if (m_pendingWhole) {
        m_lastRecoloured = kWholeScene;
        m_lastRecolourInView = inSomeView(sceneRect());
        repaint();
    } else {
        m_lastRecoloured = static_cast<std::size_t>(m_pendingAreas.size());
        m_lastRecolourInView = false;
        for (const QRectF& area : std::as_const(m_pendingAreas)) {
            update(area);
            m_lastRecolourInView = m_lastRecolourInView || inSomeView(area);
        }
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
        if (hit->type() >= NodeItemType && hit->type() <= ClusterItemType && !CanvasRoot::isRetired(hit)) {
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

void GraphScene::mousePressEvent(QGraphicsSceneMouseEvent* event)
{
    // While a replaced picture's items are deleted, there is nothing to pick: the view pans.
    if (!m_retired.empty()) {
        event->ignore();
        return;
    }
    QGraphicsScene::mousePressEvent(event);
}

void GraphScene::mouseDoubleClickEvent(QGraphicsSceneMouseEvent* event)
{
    const QList<QGraphicsItem*> hits = items(event->scenePos());
    for (QGraphicsItem* hit : hits) {
        if (!hit || CanvasRoot::isRetired(hit))
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
