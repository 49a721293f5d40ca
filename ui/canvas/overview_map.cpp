// SPDX-License-Identifier: MIT
#include "canvas/overview_map.h"

#include "canvas/graph_scene.h"
#include "canvas/graph_view.h"
#include "canvas/overview_picture.h"
#include "model/thread_handoff.h"

#include <QMouseEvent>
#include <QPainter>
#include <QPointer>

namespace remat::ui {

OverviewMap::OverviewMap(GraphView* view, GraphScene* scene, QWidget* parent)
    : QWidget(parent)
    , m_view(view)
    , m_scene(scene)
    , m_latest(std::make_shared<std::atomic<quint64>>(0))
{
    setCursor(Qt::PointingHandCursor);
    setToolTip(tr("Overview: click or drag to move the view"));
    m_renderTimer.setSingleShot(true);
    m_renderTimer.setInterval(150); // recolours come in bursts while tagging
    connect(&m_renderTimer, &QTimer::timeout, this, &OverviewMap::render);
    connect(view, &GraphView::visibleAreaChanged, this, qOverload<>(&QWidget::update));
    m_pool.setMaxThreadCount(1);
}

OverviewMap::~OverviewMap()
{
    ++*m_latest; // a render in flight stops at its next check
    m_pool.waitForDone();
}

void OverviewMap::invalidate()
{
    m_renderTimer.start();
}

void OverviewMap::updateSize(int maxSide)
{
    const QRectF r = m_scene->sceneRect();
    if (r.isEmpty()) {
        resize(maxSide, maxSide / 2);
        return;
    }
    const double aspect = r.width() / r.height();
    const int w = aspect >= 1 ? maxSide : std::max(70, static_cast<int>(maxSide * aspect));
    const int h = aspect >= 1 ? std::max(50, static_cast<int>(maxSide / aspect)) : maxSide;
    resize(w, h);
}

QRectF OverviewMap::sceneRect() const
{
    return m_scene->hasContent() ? m_scene->sceneRect() : QRectF();
}

QRectF OverviewMap::imageRect(const QRectF& sceneRect) const
{
    if (sceneRect.isEmpty())
        return {};
    const QRectF area = QRectF(rect()).adjusted(3, 3, -3, -3);
    const double s = std::min(area.width() / sceneRect.width(), area.height() / sceneRect.height());
    const QSizeF size(sceneRect.width() * s, sceneRect.height() * s);
    return QRectF(area.center() - QPointF(size.width() / 2, size.height() / 2), size);
}

void OverviewMap::render()
{
    if (isHidden())
        return; // drawn when shown
    if (m_rendering) {
        m_again = true;
        return;
    }
    const QRectF scene = sceneRect();
    const QRectF target = imageRect(scene);
    auto source = std::make_shared<OverviewSource>();
    source->layout = m_scene->sharedLayout();
    if (target.isEmpty() || !source->layout) {
        m_image = QImage();
        update();
        return;
    }
    source->state = m_scene->state(); // a copy: the scene goes on changing meanwhile
    source->sceneRect = scene;
    const qreal dpr = devicePixelRatioF();
    const QSize pixels = (target.size() * dpr).toSize();
    const quint64 generation = ++*m_latest;
    m_rendering = true;
    QPointer<OverviewMap> self(this);
    // At the GUI thread's priority, unlike other background work: painting may start threads in
    // Qt's raster pool, which the GUI thread waits for when it paints.
    startInPool(m_pool, [self, source, pixels, dpr, generation, latest = m_latest] {
        const QImage image
            = renderOverview(*source, pixels, dpr, [&] { return latest->load() != generation; });
        queueCall(self, [self, generation, image, scene = source->sceneRect] {
            if (self)
                self->onRendered(generation, image, scene);
        });
    });
}

void OverviewMap::onRendered(quint64 generation, const QImage& image, const QRectF& sceneRect)
{
    m_rendering = false;
    if (generation == m_latest->load() && !image.isNull()) {
        m_image = image;
        m_imageSceneRect = sceneRect;
        update();
    }
    if (m_again) {
        m_again = false;
        m_renderTimer.start();
    }
}

void OverviewMap::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    invalidate();
}

void OverviewMap::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.setPen(QColor(0, 0, 0, 90));
    p.setBrush(QColor(255, 255, 255, 235));
    p.drawRect(rect().adjusted(0, 0, -1, -1));
    const QRectF scene = sceneRect();
    const QRectF target = imageRect(scene);
    // A picture of another scene (a new layout on its way) would misplace the frame: none yet.
    if (m_image.isNull() || target.isEmpty() || m_imageSceneRect != scene)
        return;
    p.drawImage(target, m_image);
    // The visible part of the scene, mapped into the map.
    const QRectF visible = m_view->mapToScene(m_view->viewport()->rect()).boundingRect();
    const double s = target.width() / scene.width();
    QRectF frame((visible.left() - scene.left()) * s + target.left(),
        (visible.top() - scene.top()) * s + target.top(), visible.width() * s, visible.height() * s);
    frame = frame.intersected(target);
    p.setPen(QPen(QColor(0x1f, 0x6f, 0xe5), 1.5));
    p.setBrush(QColor(0x1f, 0x6f, 0xe5, 40));
    p.drawRect(frame);
}

void OverviewMap::centreViewAt(const QPointF& pos)
{
    const QRectF scene = sceneRect();
    const QRectF target = imageRect(scene);
    if (target.isEmpty())
        return;
    const double s = scene.width() / target.width();
    m_view->centerOn(
        QPointF((pos.x() - target.left()) * s + scene.left(), (pos.y() - target.top()) * s + scene.top()));
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
