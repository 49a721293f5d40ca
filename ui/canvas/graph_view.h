// SPDX-License-Identifier: MIT
#pragma once

#include "canvas/scene_tile_cache.h"

#include <QElapsedTimer>
#include <QGraphicsView>
#include <QTimer>

namespace remat::ui {

/// The canvas view: wheel zooms around the cursor, dragging the background pans, Shift-drag
/// selects with a rubber band; zoom is clamped so that the picture never gets lost.
class GraphView : public QGraphicsView {
    Q_OBJECT
public:
    explicit GraphView(QWidget* parent = nullptr);

    double zoom() const;
    void setZoom(double zoom);
    void zoomBy(double factor);
    void zoomIn() { zoomBy(1.25); }
    void zoomOut() { zoomBy(0.8); }
    void fitToWindow();
    /// The first view of a picture: the whole of it when labels stay legible so; otherwise its
    /// full width from the top (where the forward starts), at least as large as the whole fit.
    /// True when the whole picture is shown.
    bool showFirstView();
    void resetZoom() { setZoom(1.0); }
    /// Room that overlays (the legend) take from the viewport: "fit" centres the picture in what
    /// is left, and the picture's edges can be scrolled out from under them.
    void setFitMargins(const QMargins& margins);
    /// Centres on a box; zooms in to a readable scale first if the view is far out.
    void revealRect(const QRectF& rect, double minimumZoom = 0.75);
    /// Zoomed out, the view draws `scene` from pre-rendered tiles (see SceneTileCache), kept
    /// in step with the scene's changes. Call once, after setScene.
    void useTiles(QGraphicsScene* scene);
    /// A new picture or new colours everywhere: render the tiles afresh.
    void dropTiles() { m_tiles.clear(); }

Q_SIGNALS:
    void zoomChanged(double zoom);
    /// The visible area changed (scroll, zoom, resize): the overview map follows.
    void visibleAreaChanged();
    /// Right-click; the item under the cursor (if any) is selected first.
    void contextMenuRequested(const QPoint& globalPos);
    /// A repaint of the canvas finished (for timing click-to-colours honestly).
    void painted();

protected:
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void scrollContentsBy(int dx, int dy) override;
    void resizeEvent(QResizeEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    void paintEvent(QPaintEvent* event) override;

private:
    double clampZoom(double zoom) const;
    /// The scene's own rect: the picture, without the room for overlays.
    QRectF picture() const;
    /// The rect the view scrolls over: the picture and, around it, the fit margins at this zoom.
    /// Qt centres that whole rect when nothing scrolls, so a picture that fits sits in the free
    /// area rather than in the middle of the viewport, under the legend.
    void updateSceneRect();
    /// An idle tick: renders tiles still missing, then tiles around the view, a little at a time.
    void renderTilesWhenIdle();
    /// What is left of the time tiles may take in the current 16 ms.
    double tileBudget();

    QMargins m_fitMargins;
    SceneTileCache m_tiles;
    bool m_useTiles = false;
    QTimer m_tileWork; ///< single shot; at 0 ms, runs when the event queue is empty
    QElapsedTimer m_sinceLastPaint;
    QElapsedTimer m_tileWindow; ///< the current 16 ms
    double m_tileTimeUsed = 0; ///< ms spent on tiles in it
};

} // namespace remat::ui
