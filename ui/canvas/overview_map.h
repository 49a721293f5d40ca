// SPDX-License-Identifier: MIT
#pragma once

#include <QImage>
#include <QThreadPool>
#include <QTimer>
#include <QWidget>

#include <atomic>
#include <memory>

namespace remat::ui {

class GraphScene;
class GraphView;

/// A mini-map of the whole picture in a corner of the canvas, with the visible area framed;
/// click or drag in it to move there. The picture is drawn on a worker thread from the layout
/// and a copy of the canvas state (overview_picture.h), never from the items on the GUI thread:
/// at 17k boxes that took 0.1 to 1 s per recolour. Recolours come in bursts while tagging, so a
/// render starts a moment after the last change, and one at a time.
class OverviewMap : public QWidget {
    Q_OBJECT
public:
    OverviewMap(GraphView* view, GraphScene* scene, QWidget* parent = nullptr);
    ~OverviewMap() override;

    /// The scene or its colours changed: draw the picture again soon.
    void invalidate();
    /// Fits the map's size to the scene's aspect, at most `maxSide` pixels.
    void updateSize(int maxSide);
    /// A new picture is scheduled or being drawn.
    bool isPending() const { return m_renderTimer.isActive() || m_rendering || m_again; }

protected:
    void paintEvent(QPaintEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;

private:
    /// Starts drawing the current scene on the worker (or once the one drawing now is done).
    void render();
    void onRendered(quint64 generation, const QImage& image, const QRectF& sceneRect);
    /// Where a picture of `sceneRect` sits in the widget.
    QRectF imageRect(const QRectF& sceneRect) const;
    QRectF sceneRect() const;
    void centreViewAt(const QPointF& widgetPos);

    GraphView* m_view;
    GraphScene* m_scene;
    QImage m_image;
    QRectF m_imageSceneRect; ///< the scene area m_image shows
    QTimer m_renderTimer;
    QThreadPool m_pool;
    std::shared_ptr<std::atomic<quint64>> m_latest; ///< the newest render; older ones stop early
    bool m_rendering = false;
    bool m_again = false; ///< the scene changed while a render ran
};

} // namespace remat::ui
