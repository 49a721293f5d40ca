// SPDX-License-Identifier: MIT
#pragma once

#include <QCache>
#include <QImage>
#include <QRectF>

class QGraphicsScene;
class QPainter;
class QTransform;

namespace remat::ui {

/// Paints the items of `source` (scene units) into `target` on `painter`, each once, bottom to
/// top. QGraphicsScene::render also paints a parent's whole subtree for a parent whose
/// children touch `source`: for a picture under one root item, the whole scene every time.
void renderSceneArea(QGraphicsScene* scene, QPainter* painter, const QRectF& target, const QRectF& source);

/// The scene pre-rendered into tiles at power-of-two zooms, for views zoomed out: a frame then
/// draws a few images instead of thousands of items, and panning only renders the tiles that
/// come into view. Tiles are dropped where the scene changes (QGraphicsScene::changed).
class SceneTileCache {
public:
    static constexpr int kTileSize = 512; ///< device pixels
    /// Whether tiles are used at this zoom: boxes are small enough that a tile rendered at the
    /// next power of two and drawn a little smaller looks the same as painting the items.
    static bool coversZoom(double zoom) { return zoom < 0.5; }

    void setScene(QGraphicsScene* scene);
    void clear();
    /// Drops the tiles that touch these scene areas.
    void invalidate(const QList<QRectF>& sceneAreas);
    /// Draws the part of the scene that `sceneToDevice` (scale and translation) shows in
    /// `deviceRect`, rendering missing tiles first. Returns the number of tiles rendered.
    int paint(QPainter* painter, const QTransform& sceneToDevice, const QRect& deviceRect);

private:
    static quint64 key(int level, qint64 x, qint64 y);

    QGraphicsScene* m_scene = nullptr;
    QCache<quint64, QImage> m_tiles{96 * 1024}; ///< cost in KiB: 96 MiB of tiles at most
};

} // namespace remat::ui
