// SPDX-License-Identifier: MIT
#include "canvas/graph_canvas.h"

#include "canvas/busy_overlay.h"
#include "canvas/canvas_legend.h"
#include "canvas/empty_canvas.h"
#include "canvas/find_bar.h"
#include "canvas/graph_scene.h"
#include "canvas/graph_view.h"
#include "canvas/overview_map.h"
#include "document/graph_document.h"
#include "document/node_selection.h"
#include "model/timing_log.h"

#include <QResizeEvent>
#include <QVBoxLayout>

#include <algorithm>
#include <utility>

namespace remat::ui {

GraphCanvas::GraphCanvas(GraphDocument* document, NodeSelection* selection, QWidget* parent)
    : QWidget(parent)
    , m_document(document)
    , m_selection(selection)
    , m_scene(new GraphScene(this))
    , m_view(new GraphView(this))
    , m_findBar(new FindBar(this))
    , m_overview(nullptr)
    , m_legend(nullptr)
    , m_busy(nullptr)
    , m_empty(nullptr)
    , m_layout(new LayoutService(this))
    , m_tagRepaint(new QTimer(this))
{
    // A tag is followed by a new partition a few milliseconds later: one repaint for both,
    // instead of two in a row, keeps click-to-colours short.
    constexpr int kTagRepaintMs = 60;
    m_tagRepaint->setSingleShot(true);
    m_tagRepaint->setInterval(kTagRepaintMs);
    connect(m_tagRepaint, &QTimer::timeout, m_scene, &GraphScene::repaintPending);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_findBar);
    layout->addWidget(m_view, 1);
    m_findBar->hide();
    m_view->setScene(m_scene);
    m_view->useTiles(m_scene);
    m_overview = new OverviewMap(m_view, m_scene, m_view);
    m_legend = new CanvasLegend(m_view);
    connect(m_legend, &CanvasLegend::foldedChanged, this, [this] { placeOverlays(); });
    m_busy = new BusyOverlay(this);
    m_empty = new EmptyCanvas(m_view);
    m_view->viewport()->installEventFilter(this);

    connect(m_layout, &LayoutService::contentReady, this, &GraphCanvas::onContentReady);
    connect(m_layout, &LayoutService::stageChanged, this, [this](quint64 ticket, const QString& stage) {
        if (ticket == m_ticket && m_busy->isVisible())
            m_busy->setStage(stage, -1);
    });
    connect(m_layout, &LayoutService::failed, this, [this](quint64 ticket, const QString& message) {
        if (ticket != m_ticket)
            return;
        m_busy->finish();
        Q_EMIT layoutFailed(message);
    });
    connect(m_busy, &BusyOverlay::cancelRequested, this, &GraphCanvas::cancelLayout);
    connect(m_scene, &GraphScene::appearanceChanged, m_overview, &OverviewMap::invalidate);
    // The legend keys the fills the canvas draws now (regions, compared plans, device partitions).
    const auto followScene = [this] {
        const QSize before = m_legend->size();
        m_legend->follow(m_scene->state());
        if (m_legend->size() != before)
            placeOverlays();
    };
    connect(m_scene, &GraphScene::appearanceChanged, this, followScene);
    connect(m_scene, &GraphScene::referenceMarksChanged, this, followScene);
    connect(m_scene, &GraphScene::appearanceChanged, m_view, &GraphView::dropTiles);
    connect(m_scene, &GraphScene::areasRecoloured, m_overview, &OverviewMap::invalidate);
    connect(m_scene, &QGraphicsScene::selectionChanged, this, &GraphCanvas::onSceneSelectionChanged);
    connect(m_scene, &GraphScene::pictureRectSet, this, &GraphCanvas::placePicture);
    connect(m_scene, &GraphScene::filled, this, &GraphCanvas::finishPicture);
    connect(m_scene, &GraphScene::fillProgress, this, [this](int permille) {
        if (m_busy->isVisible() && !m_layout->isBusy())
            m_busy->setStage(tr("Adding the picture to the canvas"), permille);
    });
    connect(m_scene, &GraphScene::groupExpandRequested, this, [this](int g) { setExpanded(g, true); });
    connect(m_scene, &GraphScene::groupCollapseRequested, this, [this](int g) { setExpanded(g, false); });
    connect(m_view, &GraphView::contextMenuRequested, this, &GraphCanvas::contextMenuRequested);
    connect(m_selection, &NodeSelection::changed, this,
        [this](NodeSelection::Origin o) { onSelectionChanged(static_cast<int>(o)); });

    connect(m_document, &GraphDocument::tagsChanged, this, [this] { updateTags(false); });
    connect(m_document, &GraphDocument::partitionChanged, this, [this](PartitionOutcomePtr outcome) {
        m_tagRepaint->stop();
        m_scene->setOutcome(std::move(outcome));
        qCDebug(lcTiming, "%9.2f canvas state recoloured", timingClockMs());
        Q_EMIT recoloured();
    });
}

void GraphCanvas::showGraph()
{
    const LoadedGraphPtr graph = m_document->graph();
    m_empty->setVisible(!graph);
    m_scene->setGraph(graph);
    m_firstPicture = true;
    m_revealAfterLayout = kNoNode;
    m_anchorGroup = -1;
    const std::size_t groups = graph ? graph->groups.groups.size() : 0;
    m_expanded.assign(groups, graph && graph->size() <= kExpandedUpTo ? 1 : 0);
    updateTags(true);
    if (m_document->outcome())
        m_scene->setOutcome(m_document->outcome());
    requestLayout(graph && graph->size() > kExpandedUpTo
            ? tr("Laying out the summary of %1 nodes").arg(graph->size())
            : tr("Laying out %1 nodes").arg(graph ? graph->size() : 0));
}

bool GraphCanvas::isExpanded(int group) const
{
    return group >= 0 && static_cast<std::size_t>(group) < m_expanded.size()
        && m_expanded[static_cast<std::size_t>(group)];
}

void GraphCanvas::setExpanded(int group, bool expanded)
{
    if (group < 0 || static_cast<std::size_t>(group) >= m_expanded.size() || isExpanded(group) == expanded)
        return;
    const GroupTree& tree = m_document->graph()->groups;
    auto apply = [&](int g) {
        m_expanded[static_cast<std::size_t>(g)] = expanded ? 1 : 0;
        if (expanded)
            return;
        // Collapsing a group collapses what is inside it too, so that it reopens tidy.
        std::vector<int> stack(tree.group(g).children);
        while (!stack.empty()) {
            const int inner = stack.back();
            stack.pop_back();
            m_expanded[static_cast<std::size_t>(inner)] = 0;
            stack.insert(stack.end(), tree.group(inner).children.begin(), tree.group(inner).children.end());
        }
    };
    apply(group);
    // The forward and backward halves of a block open and close together, side by side, so
    // that what one saves for the other stays a short edge.
    const int partner = tree.partnerOf(group);
    if (partner >= 0
        && (!expanded || tree.group(partner).parent < 0 || isExpanded(tree.group(partner).parent)))
        apply(partner);
    m_anchorGroup = group;
    const Group& g = m_document->graph()->groups.group(group);
    requestLayout(expanded ? tr("Expanding %1 (%2 nodes)").arg(g.label).arg(g.members.size())
                           : tr("Collapsing %1").arg(g.label));
}

void GraphCanvas::expandAll()
{
    std::fill(m_expanded.begin(), m_expanded.end(), 1);
    m_anchorGroup = -1;
    m_firstPicture = true; // fit the whole picture again
    requestLayout(
        tr("Expanding every group (%1 nodes)").arg(m_document->graph() ? m_document->graph()->size() : 0));
}

void GraphCanvas::collapseAll()
{
    std::fill(m_expanded.begin(), m_expanded.end(), 0);
    m_anchorGroup = -1;
    m_firstPicture = true;
    requestLayout(tr("Collapsing every group"));
}

void GraphCanvas::revealNode(NodeId n)
{
    const LoadedGraphPtr graph = m_document->graph();
    if (!graph || n < 0)
        return;
    bool changed = false;
    for (int g : graph->groups.empty() ? std::vector<int> {} : graph->groups.ancestry(n)) {
        if (!isExpanded(g)) {
            m_expanded[static_cast<std::size_t>(g)] = 1;
            changed = true;
        }
    }
    if (changed) {
        m_revealAfterLayout = n;
        m_anchorGroup = -1;
        requestLayout(tr("Expanding the groups around %1").arg(graph->label(n).name));
        return;
    }
    if (BoxItem* box = m_scene->boxForNode(n))
        m_view->revealRect(box->box());
}

bool GraphCanvas::hasPendingWork() const
{
    return m_layout->isBusy() || m_overview->isPending() || m_scene->isSwapping();
}

void GraphCanvas::cancelLayout()
{
    m_layout->cancel();
    m_busy->finish();
}

void GraphCanvas::requestLayout(const QString& what)
{
    const LoadedGraphPtr graph = m_document->graph();
    if (!graph)
        return;
    m_ticket = m_layout->request(graph, m_expanded, m_scene->statePointer());
    m_busy->start(what);
    m_busy->setStage(tr("Preparing…"), -1);
    placeOverlays();
    Q_EMIT layoutStarted(what);
}

void GraphCanvas::onContentReady(
    quint64 ticket, std::shared_ptr<CanvasContent> content, const CanvasTimings& timings)
{
    if (ticket != m_ticket)
        return;
    // Where the user was looking, to come back there after the swap.
    m_zoomBefore = m_view->zoom();
    m_pictureTimings = timings;
    m_syncingSelection = true; // swapping items must not clear the shared selection
    m_scene->setContent(std::move(content)); // placePicture() once the scene rect is the new one
    m_syncingSelection = false;
    if (m_scene->isSwapping())
        m_busy->setStage(tr("Adding the picture to the canvas"), 0); // finishPicture() follows
    else
        finishPicture();
}

void GraphCanvas::placePicture()
{
    m_overview->updateSize(std::clamp(std::min(m_view->width(), m_view->height()) / 5, 110, 170));
    placeOverlays();
    if (m_firstPicture) {
        m_firstPicture = false;
        // Where the first view shows only part of the picture, the legend starts folded.
        m_legend->setFolded(!m_view->showFirstView());
    } else {
        m_view->setZoom(m_zoomBefore);
    }
    if (m_anchorGroup >= 0) {
        if (ClusterItem* frame = m_scene->clusterForGroup(m_anchorGroup)) {
            const QRectF r = frame->boundingRect();
            // Fit the expanded group if it fits at a readable scale, else show its top.
            const double fit = std::min(
                m_view->viewport()->width() / r.width(), m_view->viewport()->height() / r.height());
            if (fit >= 0.5)
                m_view->setZoom(std::min(fit * 0.95, 1.0));
            m_view->revealRect(fit >= 0.5
                    ? r
                    : QRectF(r.topLeft(), QSizeF(r.width(), m_view->viewport()->height() / m_view->zoom())));
        } else if (BoxItem* box = m_scene->boxForViewItem(
                       m_scene->view()->itemOfGroup[static_cast<std::size_t>(m_anchorGroup)])) {
            m_view->revealRect(box->box(), 0);
        }
        m_anchorGroup = -1;
    }
    const bool reveal = m_revealAfterLayout != kNoNode;
    if (reveal) {
        const NodeId n = m_revealAfterLayout;
        m_revealAfterLayout = kNoNode;
        if (BoxItem* box = m_scene->boxForNode(n))
            m_view->revealRect(box->box());
    }
}

void GraphCanvas::finishPicture()
{
    if (!m_layout->isBusy())
        m_busy->finish();
    applySelectionToScene(std::exchange(m_centreWhenFilled, false), true);
    m_overview->invalidate();
    Q_EMIT pictureReady(m_pictureTimings);
}

void GraphCanvas::onSceneSelectionChanged()
{
    if (m_syncingSelection)
        return;
    std::vector<NodeId> nodes;
    std::vector<int> groups;
    std::vector<int> focus;
    for (QGraphicsItem* item : m_scene->selectedItems()) {
        if (CanvasRoot::isRetired(item))
            continue; // a replaced picture's (a rubber band may reach it)
        if (auto* node = qgraphicsitem_cast<NodeItem*>(item)) {
            nodes.push_back(node->node());
            focus.push_back(node->viewItem());
        } else if (auto* group = qgraphicsitem_cast<GroupItem*>(item)) {
            groups.push_back(group->group());
            focus.push_back(group->viewItem());
        }
    }
    std::sort(nodes.begin(), nodes.end());
    m_scene->setFocusItems(focus);
    m_syncingSelection = true;
    m_selection->select(std::move(nodes), std::move(groups), NodeSelection::Origin::Canvas);
    m_syncingSelection = false;
}

void GraphCanvas::onSelectionChanged(int origin)
{
    if (m_syncingSelection || static_cast<NodeSelection::Origin>(origin) == NodeSelection::Origin::Canvas)
        return;
    // A node picked elsewhere (table, find) may sit inside a collapsed group: open it first.
    const NodeId current = m_selection->currentNode();
    if (current != kNoNode) {
        BoxItem* box = m_scene->boxForNode(current);
        if (!box || box->type() != NodeItemType) {
            revealNode(current);
            return; // selection is applied when the new picture arrives
        }
    }
    if (m_scene->isFilling()) {
        m_centreWhenFilled = true; // applied to every item at once, when all are in the scene
        return;
    }
    applySelectionToScene(true, false);
}

void GraphCanvas::applySelectionToScene(bool centre, bool followCollapse)
{
    m_syncingSelection = true;
    m_scene->clearSelection();
    std::vector<int> focus;
    BoxItem* first = nullptr;
    std::vector<NodeId> shownNodes;
    std::vector<int> shownGroups;
    auto selectBox = [&](BoxItem* box) {
        if (!box->isSelected()) {
            box->setSelected(true);
            focus.push_back(box->viewItem());
        }
    };
    for (NodeId n : m_selection->nodes()) {
        BoxItem* box = m_scene->boxForNode(n);
        if (box && box->type() == NodeItemType) {
            selectBox(box);
            shownNodes.push_back(n);
            if (!first)
                first = box;
        } else if (auto* group = qgraphicsitem_cast<GroupItem*>(box); group && followCollapse) {
            // The node's group was collapsed: the selection moves to the group's box.
            selectBox(group);
            shownGroups.push_back(group->group());
        }
    }
    const ViewGraph* view = m_scene->view();
    const GroupTree* tree = m_document->graph() ? &m_document->graph()->groups : nullptr;
    auto groupBox = [&](int g) -> BoxItem* {
        const bool known = view && tree && g >= 0 && static_cast<std::size_t>(g) < view->itemOfGroup.size();
        return known ? m_scene->boxForViewItem(view->itemOfGroup[static_cast<std::size_t>(g)]) : nullptr;
    };
    for (int g : m_selection->groups()) {
        BoxItem* box = groupBox(g);
        // A selected group inside one that was collapsed: the selection moves out to the box.
        for (int outer = g; !box && followCollapse && outer >= 0 && tree;) {
            outer = tree->group(outer).parent;
            box = groupBox(outer);
            g = outer;
        }
        if (box) {
            selectBox(box);
            shownGroups.push_back(g);
        }
    }
    m_scene->setFocusItems(focus);
    if (followCollapse) {
        std::sort(shownGroups.begin(), shownGroups.end());
        shownGroups.erase(std::unique(shownGroups.begin(), shownGroups.end()), shownGroups.end());
        std::vector<int> before = m_selection->groups();
        std::sort(before.begin(), before.end());
        if (shownNodes != m_selection->nodes() || shownGroups != before)
            m_selection->select(std::move(shownNodes), std::move(shownGroups), NodeSelection::Origin::Canvas);
    }
    m_syncingSelection = false;
    if (centre && first)
        m_view->revealRect(first->box());
}

void GraphCanvas::updateTags(bool immediately)
{
    const LoadedGraphPtr graph = m_document->graph();
    if (!graph)
        return;
    std::vector<CheckpointPolicy> tags(graph->size());
    std::vector<char> user(graph->size(), 0);
    for (std::size_t i = 0; i < graph->size(); ++i)
        tags[i] = graph->graph.nodes()[i].meta.recompute;
    for (const auto& [n, policy] : m_document->userOverrides()) {
        tags[static_cast<std::size_t>(n)] = policy;
        user[static_cast<std::size_t>(n)] = 1;
    }
    m_scene->setTags(std::move(tags), std::move(user), immediately);
    if (!immediately)
        m_tagRepaint->start();
}

void GraphCanvas::setOverviewVisible(bool visible)
{
    m_overview->setVisible(visible);
    placeOverlays();
}

void GraphCanvas::setLegendVisible(bool visible)
{
    m_legend->setVisible(visible);
    placeOverlays();
}

bool GraphCanvas::isOverviewVisible() const
{
    return !m_overview->isHidden();
}

bool GraphCanvas::isLegendVisible() const
{
    return !m_legend->isHidden();
}

void GraphCanvas::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    placeOverlays();
}

bool GraphCanvas::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_view->viewport() && event->type() == QEvent::Resize)
        m_empty->setGeometry(m_view->viewport()->geometry());
    return QWidget::eventFilter(watched, event);
}

void GraphCanvas::placeOverlays()
{
    // Overlays sit inside the view, clear of its scroll bars.
    const QRect area = m_view->viewport()->geometry();
    const int margin = 10;
    m_overview->move(
        area.right() - m_overview->width() - margin, area.bottom() - m_overview->height() - margin);
    m_legend->move(area.left() + margin, area.bottom() - m_legend->height() - margin);
    m_busy->adjustSize();
    const QRect here = rect();
    m_busy->move(here.center().x() - m_busy->width() / 2, here.center().y() - m_busy->height() / 2);
    m_empty->setGeometry(area);
    m_overview->raise();
    m_legend->raise();
    m_empty->raise();
    m_busy->raise();
    // "Fit" keeps the picture clear of the legend and the overview map along the bottom.
    const int legend = m_legend->isHidden() ? 0 : m_legend->height();
    const int overview = m_overview->isHidden() ? 0 : m_overview->height();
    m_view->setFitMargins(QMargins(0, 0, 0, std::max(legend, overview) + margin));
}

} // namespace remat::ui
