// SPDX-License-Identifier: MIT
#include "canvas/graph_view.h"

#include "canvas/canvas_items.h"
#include "canvas/graph_scene.h"
#include "model/timing_log.h"

#include <QBackingStore>
#include <QContextMenuEvent>
#include <QGraphicsItem>
#include <QMouseEvent>
#include <QPaintEngine>
#include <QPainter>
#include <QScrollBar>
#include <QStyleOptionRubberBand>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace remat::ui {
namespace {

constexpr double kMaxZoom = 4.0;
// A frame at 60 Hz has 16 ms: rendering tiles may take this much of each 16 ms, in paints and
// idle ticks together, so that input is never held up for long.
constexpr double kTileBudgetMs = 6.0;
constexpr int kFrameMs = 16;
// Tiles ahead of need are rendered once the view has been still this long: while it moves,
// idle ticks only finish what is on screen.
constexpr int kStillMs = 40;

} // namespace

GraphView::GraphView(QWidget* parent)
    : QGraphicsView(parent)
{
    setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing | QPainter::SmoothPixmapTransform);
    setDragMode(ScrollHandDrag);
    setTransformationAnchor(AnchorUnderMouse);
    setResizeAnchor(AnchorViewCenter);
    // Items repaint from shared state; redrawing the exposed area in one pass is cheapest.
    setViewportUpdateMode(SmartViewportUpdate);
    setOptimizationFlag(DontAdjustForAntialiasing);
    setFrameShape(QFrame::NoFrame);
    setFocusPolicy(Qt::StrongFocus);
    setBackgroundBrush(Qt::white);
    m_tileWork.setSingleShot(true);
    connect(&m_tileWork, &QTimer::timeout, this, &GraphView::renderTilesWhenIdle);
}

double GraphView::zoom() const
{
    return transform().m11();
}

double GraphView::clampZoom(double z) const
{
    // Never further out than a fifth of "fit": the picture stays findable.
    double minZoom = 0.01;
    if (const QRectF r = picture(); !r.isEmpty()) {
        const double fit = std::min(viewport()->width() / r.width(), viewport()->height() / r.height());
        minZoom = std::min(0.2, fit * 0.5);
    }
    return std::clamp(z, minZoom, kMaxZoom);
}

void GraphView::setZoom(double z)
{
    z = clampZoom(z);
    setTransform(QTransform::fromScale(z, z));
    updateSceneRect();
    Q_EMIT zoomChanged(z);
    Q_EMIT visibleAreaChanged();
}

void GraphView::zoomBy(double factor)
{
    const double target = clampZoom(zoom() * factor);
    const double applied = target / zoom();
    if (std::abs(applied - 1.0) < 1e-9)
        return;
    scale(applied, applied);
    updateSceneRect();
    Q_EMIT zoomChanged(zoom());
    Q_EMIT visibleAreaChanged();
}

void GraphView::fitToWindow()
{
    const QRectF r = picture();
    if (r.isEmpty())
        return;
    const QRect area = viewport()->rect().marginsRemoved(m_fitMargins);
    const double fit = std::min(area.width() / r.width(), area.height() / r.height());
    // Small graphs are not blown up past 100 %: boxes would look bloated.
    const double z = std::min(fit, 1.0);
    setTransform(QTransform::fromScale(z, z));
    updateSceneRect();
    // Centre the picture in the free area, not under the overlays.
    const QPointF shift = QPointF(viewport()->rect().center() - area.center()) / z;
    centerOn(r.center() + shift);
    Q_EMIT zoomChanged(zoom());
    Q_EMIT visibleAreaChanged();
}

bool GraphView::showFirstView()
{
    fitToWindow();
    const QRectF r = picture();
    constexpr double kLegible = 0.3; // below this, box labels are smaller than 4 px (a summary of
                                     // groups reads at 0.34, a whole 173-node U is at 0.1)
    if (r.isEmpty() || zoom() >= kLegible)
        return true;
    const QRect area = viewport()->rect().marginsRemoved(m_fitMargins);
    const double byWidth = std::min(area.width() / r.width(), 1.0);
    if (byWidth <= zoom())
        return true; // a wide picture: the whole fit is as close as a full width gets
    setTransform(QTransform::fromScale(byWidth, byWidth));
    updateSceneRect();
    const double visibleHeight = area.height() / byWidth;
    centerOn(r.center().x(), r.top() + visibleHeight / 2);
    Q_EMIT zoomChanged(zoom());
    Q_EMIT visibleAreaChanged();
    return false;
}

void GraphView::setFitMargins(const QMargins& margins)
{
    if (margins == m_fitMargins)
        return;
    m_fitMargins = margins;
    updateSceneRect();
}

QRectF GraphView::picture() const
{
    return scene() ? scene()->sceneRect() : QRectF();
}

void GraphView::updateSceneRect()
{
    const QRectF r = picture();
    if (r.isEmpty())
        return;
    const double z = zoom();
    setSceneRect(r.adjusted(-m_fitMargins.left() / z, -m_fitMargins.top() / z, m_fitMargins.right() / z,
        m_fitMargins.bottom() / z));
}

void GraphView::revealRect(const QRectF& rect, double minimumZoom)
{
    if (zoom() < minimumZoom)
        setZoom(minimumZoom);
    centerOn(rect.center());
    Q_EMIT visibleAreaChanged();
}

void GraphView::wheelEvent(QWheelEvent* event)
{
    if (event->modifiers() & (Qt::ShiftModifier | Qt::AltModifier)) {
        QGraphicsView::wheelEvent(event); // scroll
        return;
    }
    // 120 units per notch; touchpads send smaller steps for smooth zooming.
    const double steps = event->angleDelta().y() / 120.0;
    if (steps != 0)
        zoomBy(std::pow(1.2, steps));
    event->accept();
}

void GraphView::mousePressEvent(QMouseEvent* event)
{
    setDragMode(
        event->modifiers() & (Qt::ShiftModifier | Qt::ControlModifier) ? RubberBandDrag : ScrollHandDrag);
    QGraphicsView::mousePressEvent(event);
}

void GraphView::mouseReleaseEvent(QMouseEvent* event)
{
    QGraphicsView::mouseReleaseEvent(event);
    setDragMode(ScrollHandDrag);
}

void GraphView::scrollContentsBy(int dx, int dy)
{
    QGraphicsView::scrollContentsBy(dx, dy);
    Q_EMIT visibleAreaChanged();
}

void GraphView::resizeEvent(QResizeEvent* event)
{
    QGraphicsView::resizeEvent(event);
    Q_EMIT visibleAreaChanged();
}

void GraphView::useTiles(QGraphicsScene* scene)
{
    m_useTiles = true;
    m_tiles.setScene(scene);
    // Connecting `changed` also routes every scene update to the view through it.
    connect(scene, &QGraphicsScene::changed, this,
        [this](const QList<QRectF>& areas) { m_tiles.invalidate(areas); });
    connect(scene, &QGraphicsScene::sceneRectChanged, this, [this] {
        m_tiles.clear();
        updateSceneRect();
    });
}

void GraphView::paintEvent(QPaintEvent* event)
{
    const double start = timingClockMs();
    m_sinceLastPaint.start();
    if (!m_useTiles || !scene()) {
        QGraphicsView::paintEvent(event);
        Q_EMIT painted();
        return;
    }
    QPainter painter(viewport());
    painter.setRenderHints(renderHints());
    painter.setClipRegion(event->region());
    painter.fillRect(event->rect(), backgroundBrush());
    if (const auto* canvas = qobject_cast<const GraphScene*>(scene()); canvas && canvas->isSwapping()) {
        // The picture is added (or the last one removed) over a few turns: drawn when complete.
    } else if (SceneTileCache::coversZoom(zoom())) {
        // Zoomed out: a few images instead of thousands of items. A grab (screenshot, export)
        // gets every tile; on screen, a frame renders a few and the idle ticks that follow
        // render the rest and the tiles around. (A grab paints elsewhere than into the
        // window's backing store.)
        const QPaintDevice* target = painter.paintEngine() ? painter.paintEngine()->paintDevice() : nullptr;
        QBackingStore* store = viewport()->backingStore();
        const bool grabbed = !store || target != store->paintDevice();
        const double tilesStart = timingClockMs();
        m_tiles.paint(&painter, viewportTransform(), event->rect(), grabbed ? 1e9 : tileBudget());
        m_tileTimeUsed += timingClockMs() - tilesStart;
        m_tileWork.start(0);
    } else {
        // Closer in: the items in the exposed area, found through the scene's index.
        painter.save();
        painter.setWorldTransform(viewportTransform());
        paintSceneItems(scene(), &painter, mapToScene(event->rect().adjusted(-1, -1, 1, 1)).boundingRect());
        painter.restore();
    }
    if (const QRect band = rubberBandRect(); !band.isEmpty()) {
        QStyleOptionRubberBand option;
        option.initFrom(viewport());
        option.rect = band;
        option.shape = QRubberBand::Rectangle;
        style()->drawControl(QStyle::CE_RubberBand, &option, &painter, viewport());
    }
    qCDebug(lcTiming, "%9.2f canvas painted in %.2f ms", timingClockMs(), timingClockMs() - start);
    Q_EMIT painted();
}

double GraphView::tileBudget()
{
    if (!m_tileWindow.isValid() || m_tileWindow.elapsed() >= kFrameMs) {
        m_tileWindow.start();
        m_tileTimeUsed = 0;
    }
    return kTileBudgetMs - m_tileTimeUsed;
}

void GraphView::renderTilesWhenIdle()
{
    if (!m_useTiles || !scene() || !SceneTileCache::coversZoom(zoom()))
        return;
    const double budget = tileBudget();
    if (budget <= 0) { // this frame's share is spent: go on in the next
        m_tileWork.start(static_cast<int>(std::max<qint64>(1, kFrameMs - m_tileWindow.elapsed())));
        return;
    }
    const bool still = m_sinceLastPaint.elapsed() >= kStillMs;
    bool more = false;
    const double start = timingClockMs();
    const QList<QRect> updated
        = m_tiles.renderPending(viewportTransform(), viewport()->rect(), budget, still, more);
    m_tileTimeUsed += timingClockMs() - start;
    for (const QRect& area : updated)
        viewport()->update(area);
    if (more)
        m_tileWork.start(0);
    else if (!still)
        m_tileWork.start(kStillMs);
}

void GraphView::contextMenuEvent(QContextMenuEvent* event)
{
    // Right-clicking an unselected box acts on that box, as file managers do.
    QGraphicsItem* hit = itemAt(event->pos());
    if (CanvasRoot::isRetired(hit))
        hit = nullptr; // a replaced picture's, about to go
    while (hit && !(hit->flags() & QGraphicsItem::ItemIsSelectable))
        hit = hit->parentItem();
    if (hit && !hit->isSelected() && scene()) {
        scene()->clearSelection();
        hit->setSelected(true);
    }
    Q_EMIT contextMenuRequested(event->globalPos());
    event->accept();
}

} // namespace remat::ui
