// SPDX-License-Identifier: MIT
#include "canvas/overview_map.h"

#include "canvas/graph_view.h"
#include "canvas/scene_tile_cache.h"

#include <QGraphicsScene>
#include <QMouseEvent>
#include <QPainter>

namespace remat::ui {

OverviewMap::OverviewMap(GraphView* view, QWidget* parent)
    : QWidget(parent)
    , m_view(view)
{
    setCursor(Qt::PointingHandCursor);
    setToolTip(tr("Overview: click or drag to move the view"));
    m_renderTimer.setSingleShot(true);
    m_renderTimer.setInterval(150); // recolours come in bursts while tagging
    connect(&m_renderTimer, &QTimer::timeout, this, &OverviewMap::render);
    connect(view, &GraphView::visibleAreaChanged, this, qOverload<>(&QWidget::update));
}

void OverviewMap::invalidate()
{
    m_wholeDirty = true;
    m_dirtyAreas.clear();
    m_renderTimer.start();
}

void OverviewMap::invalidateAreas(const QList<QRectF>& areas)
{
    if (!m_wholeDirty)
        m_dirtyAreas.append(areas);
    m_renderTimer.start();
}

void OverviewMap::updateSize(int maxSide)
{
    const QRectF r = m_view->scene() ? m_view->scene()->sceneRect() : QRectF();
    if (r.isEmpty()) {
        resize(maxSide, maxSide / 2);
        return;
    }
    const double aspect = r.width() / r.height();
    const int w = aspect >= 1 ? maxSide : std::max(70, static_cast<int>(maxSide * aspect));
    const int h = aspect >= 1 ? std::max(50, static_cast<int>(maxSide / aspect)) : maxSide;
    resize(w, h);
}

QRectF OverviewMap::imageRect() const
{
    if (m_sceneRect.isEmpty())
        return {};
    const QRectF area = QRectF(rect()).adjusted(3, 3, -3, -3);
    const double s = std::min(area.width() / m_sceneRect.width(), area.height() / m_sceneRect.height());
    const QSizeF size(m_sceneRect.width() * s, m_sceneRect.height() * s);
    return QRectF(area.center() - QPointF(size.width() / 2, size.height() / 2), size);
}

void OverviewMap::render()
{
    QGraphicsScene* scene = m_view->scene();
    if (!scene)
        return;
    if (!m_wholeDirty && !m_image.isNull() && m_sceneRect == scene->sceneRect()) {
        renderAreas(std::exchange(m_dirtyAreas, {}));
        return;
    }
    m_wholeDirty = false;
    m_dirtyAreas.clear();
    m_sceneRect = scene->sceneRect();
    const QRectF target = imageRect();
    if (target.isEmpty())
        return;
    const qreal dpr = devicePixelRatioF();
    m_image = QImage((target.size() * dpr).toSize(), QImage::Format_ARGB32_Premultiplied);
    m_image.setDevicePixelRatio(dpr);
    m_image.fill(Qt::white);
    QPainter painter(&m_image);
    painter.setRenderHint(QPainter::Antialiasing);
    renderSceneArea(scene, &painter, QRectF(QPointF(0, 0), target.size()), m_sceneRect);
    update();
}

void OverviewMap::renderAreas(const QList<QRectF>& areas)
{
    // A recolour touches a few boxes: redraw the image pixels under each, not the whole scene.
    const QRectF target = imageRect();
    if (target.isEmpty())
        return;
    const double scale = target.width() / m_sceneRect.width() * m_image.devicePixelRatio();
    QPainter painter(&m_image);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.scale(1 / m_image.devicePixelRatio(), 1 / m_image.devicePixelRatio()); // device pixels
    for (const QRectF& area : areas) {
        const QRectF mapped((area.left() - m_sceneRect.left()) * scale, (area.top() - m_sceneRect.top()) * scale,
            area.width() * scale, area.height() * scale);
        const QRect pixels = mapped.toAlignedRect().adjusted(-1, -1, 1, 1).intersected(m_image.rect());
        if (pixels.isEmpty())
            continue;
        const QRectF source(m_sceneRect.left() + pixels.left() / scale, m_sceneRect.top() + pixels.top() / scale,
            pixels.width() / scale, pixels.height() / scale);
        painter.setClipRect(pixels);
        painter.fillRect(pixels, Qt::white);
        renderSceneArea(m_view->scene(), &painter, QRectF(pixels), source);
    }
    update();
}

void OverviewMap::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.setPen(QColor(0, 0, 0, 90));
    p.setBrush(QColor(255, 255, 255, 235));
    p.drawRect(rect().adjusted(0, 0, -1, -1));
    const QRectF target = imageRect();
    if (m_image.isNull() || target.isEmpty())
        return;
    p.drawImage(target, m_image);
    // The visible part of the scene, mapped into the map.
    const QRectF visible = m_view->mapToScene(m_view->viewport()->rect()).boundingRect();
    const double s = target.width() / m_sceneRect.width();
    QRectF frame((visible.left() - m_sceneRect.left()) * s + target.left(), (visible.top() - m_sceneRect.top()) * s + target.top(),
                 visible.width() * s, visible.height() * s);
    frame = frame.intersected(target);
    p.setPen(QPen(QColor(0x1f, 0x6f, 0xe5), 1.5));
    p.setBrush(QColor(0x1f, 0x6f, 0xe5, 40));
    p.drawRect(frame);
}

void OverviewMap::centreViewAt(const QPointF& pos)
{
    const QRectF target = imageRect();
    if (target.isEmpty())
        return;
    const double s = m_sceneRect.width() / target.width();
    m_view->centerOn(QPointF((pos.x() - target.left()) * s + m_sceneRect.left(), (pos.y() - target.top()) * s + m_sceneRect.top()));
}

void OverviewMap::mousePressEvent(QMouseEvent* event)
{
    centreViewAt(event->position());
}

void OverviewMap::mouseMoveEvent(QMouseEvent* event)
{
    if (event->buttons() & Qt::LeftButton)
        centreViewAt(event->position());
}

} // namespace remat::ui
