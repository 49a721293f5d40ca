// SPDX-License-Identifier: MIT
#pragma once

#include <QCache>
#include <QElapsedTimer>
#include <QImage>
#include <QList>
#include <QRectF>

class QGraphicsScene;
class QPainter;
class QTransform;

namespace remat::ui {

/// Paints the items that touch `area` (scene units) with the painter's current transform, each
/// once, bottom to top, from the scene's index: QGraphicsView walks every child of a parent
/// item (here: the whole picture) on every paint.
void paintSceneItems(QGraphicsScene* scene, QPainter* painter, const QRectF& area);

/// Paints the items of `source` (scene units) into `target` on `painter`, each once, bottom to
/// top. QGraphicsScene::render also paints a parent's whole subtree for a parent whose
/// children touch `source`: for a picture under one root item, the whole scene every time.
void renderSceneArea(QGraphicsScene* scene, QPainter* painter, const QRectF& target, const QRectF& source);

/// The scene pre-rendered into tiles at power-of-two zooms, for views zoomed out: a frame then
/// draws a few images instead of thousands of items, and panning only renders the tiles that
/// come into view. Rendering is progressive: a frame renders missing tiles for a few
/// milliseconds and draws the rest from another zoom level's tiles (or leaves them blank);
/// renderPending() finishes them, and pre-renders around the view, on idle ticks. Where the
/// scene changes (QGraphicsScene::changed) the tiles are repainted in place, only there.
class SceneTileCache {
public:
    static constexpr int kTileSize = 256; ///< device pixels: small, so that one tile is quick
    /// Whether tiles are used at this zoom: boxes are small enough that a tile rendered at the
    /// next power of two and drawn a little smaller looks the same as painting the items.
    static bool coversZoom(double zoom) { return zoom < 0.5; }

    void setScene(QGraphicsScene* scene);
    void clear();
    /// Marks these scene areas of the cached tiles for repainting.
    void invalidate(const QList<QRectF>& sceneAreas);
    /// Draws the part of the scene that `sceneToDevice` (scale and translation) shows in
    /// `deviceRect`. Repaints changed areas and renders missing tiles, nearest the centre
    /// first, for at most `budgetMs`; what is left is drawn from other levels meanwhile.
    /// Returns whether visible tiles are still missing or stale.
    bool paint(QPainter* painter, const QTransform& sceneToDevice, const QRect& deviceRect, double budgetMs);
    /// Idle work for the view `sceneToDevice` shows in `viewRect`, for at most `budgetMs`:
    /// visible tiles still missing or stale, then with `ahead` a margin around the view and the
    /// next zoom levels in and out. Returns the device areas of the view that now draw
    /// differently; `more` says whether work is left.
    QList<QRect> renderPending(
        const QTransform& sceneToDevice, const QRect& viewRect, double budgetMs, bool ahead, bool& more);

private:
    struct Tile {
        QImage image;
        QList<QRectF> pieces; ///< scene areas of a new tile still to render
        QList<QRectF> stale; ///< scene areas the scene changed since they were rendered
        bool filled = false; ///< all pieces rendered once
    };
    struct Place {
        int level;
        qint64 x;
        qint64 y;
    };

    static quint64 key(int level, qint64 x, qint64 y);
    static Place placeOf(quint64 key);
    static int levelFor(double zoom);
    static QRectF sceneRectOf(const Place& p);
    /// The tiles of `level` over `sceneArea`, nearest its centre first.
    static QList<Place> placesOver(int level, const QRectF& sceneArea);
    static int piecesPerSide(int level);
    /// The tile's area in the pieces it is rendered (or repainted whole) in, one a step.
    static QList<QRectF> piecesOf(const Place& p);
    /// Renders the tile's missing pieces and repaints its stale areas, one at least, more while
    /// `clock` is within `budgetMs`. True when work was done.
    bool bring(const Place& p, const QElapsedTimer& clock, double budgetMs);
    bool ready(const Place& p);
    /// A few boxes changed in a drawn tile (a selection, a recolour): repainted in this frame,
    /// past the frame's budget up to kPatchBudgetMs, so that the change shows at once.
    bool smallPatch(const Place& p);
    static constexpr double kPatchBudgetMs = 16;
    /// Draws a missing or stale tile's area from a cached coarser or finer level.
    void drawStandIn(QPainter* painter, const QTransform& sceneToDevice, const Place& p);

    QGraphicsScene* m_scene = nullptr;
    QCache<quint64, Tile> m_tiles {96 * 1024}; ///< cost in KiB, least recently used dropped first
};

} // namespace remat::ui
