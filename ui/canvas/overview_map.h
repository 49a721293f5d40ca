// SPDX-License-Identifier: MIT
#pragma once

#include <QImage>
#include <QTimer>
#include <QWidget>

namespace remat::ui {

class GraphView;

/// A mini-map of the whole picture in a corner of the canvas, with the visible area framed;
/// click or drag in it to move there. The picture is re-rendered (throttled) when the scene or
/// its colours change, not on every scroll.
class OverviewMap : public QWidget {
    Q_OBJECT
public:
    explicit OverviewMap(GraphView* view, QWidget* parent = nullptr);

    /// The scene changed: re-render soon.
    void invalidate();
    /// Only these scene areas changed colour: re-render just them soon.
    void invalidateAreas(const QList<QRectF>& areas);
    /// Fits the map's size to the scene's aspect, at most `maxSide` pixels.
    void updateSize(int maxSide);
    /// A re-render is scheduled but has not happened yet.
    bool isPending() const { return m_renderTimer.isActive(); }

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;

private:
    void render();
    /// Re-renders these scene areas into the current image.
    void renderAreas(const QList<QRectF>& areas);
    QRectF imageRect() const;
    void centreViewAt(const QPointF& widgetPos);

    GraphView* m_view;
    QImage m_image;
    QRectF m_sceneRect;
    QTimer m_renderTimer;
    QList<QRectF> m_dirtyAreas; ///< scene areas to re-render, unless the whole is
    bool m_wholeDirty = true;
};

} // namespace remat::ui
