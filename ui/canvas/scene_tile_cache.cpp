// SPDX-License-Identifier: MIT
#include "canvas/scene_tile_cache.h"

#include "model/timing_log.h"

#include <QElapsedTimer>
#include <QGraphicsItem>
#include <QGraphicsScene>
#include <QPainter>
#include <QStyleOptionGraphicsItem>

#include <cmath>

namespace remat::ui {

namespace {

/// Tile coordinates are kept in 24 bits each, the level in 16.
constexpr qint64 kCoordinateMask = (qint64(1) << 24) - 1;

} // namespace

void renderSceneArea(QGraphicsScene* scene, QPainter* painter, const QRectF& target, const QRectF& source)
{
    if (source.isEmpty())
        return;
    painter->save();
    painter->setClipRect(target, Qt::IntersectClip);
    painter->translate(target.topLeft());
    painter->scale(target.width() / source.width(), target.height() / source.height());
    painter->translate(-source.topLeft());
    painter->fillRect(source, scene->backgroundBrush());
    QStyleOptionGraphicsItem option;
    const QList<QGraphicsItem*> items = scene->items(source, Qt::IntersectsItemBoundingRect, Qt::AscendingOrder);
    for (QGraphicsItem* item : items) {
        if ((item->flags() & QGraphicsItem::ItemHasNoContents) || !item->isVisible())
            continue;
        painter->save();
        painter->setTransform(item->sceneTransform(), true);
        option.exposedRect = item->boundingRect();
        option.rect = option.exposedRect.toAlignedRect();
        option.state = item->isSelected() ? QStyle::State_Selected : QStyle::State_None;
        item->paint(painter, &option, nullptr);
        painter->restore();
    }
    painter->restore();
}

void SceneTileCache::setScene(QGraphicsScene* scene)
{
    m_scene = scene;
    clear();
}

void SceneTileCache::clear()
{
    m_tiles.clear();
}

quint64 SceneTileCache::key(int level, qint64 x, qint64 y)
{
    return (quint64(level & 0xffff) << 48) | (quint64(x & kCoordinateMask) << 24) | quint64(y & kCoordinateMask);
}

void SceneTileCache::invalidate(const QList<QRectF>& sceneAreas)
{
    if (m_tiles.isEmpty())
        return;
    const QList<quint64> keys = m_tiles.keys();
    for (const quint64 k : keys) {
        const int level = static_cast<std::int16_t>(k >> 48);
        const double scale = std::ldexp(1.0, level);
        const double side = kTileSize / scale;
        // Sign-extend the 24-bit tile coordinates.
        const qint64 x = static_cast<qint64>((k >> 24) & kCoordinateMask) << 40 >> 40;
        const qint64 y = static_cast<qint64>(k & kCoordinateMask) << 40 >> 40;
        const QRectF tile(static_cast<double>(x) * side, static_cast<double>(y) * side, side, side);
        for (const QRectF& area : sceneAreas) {
            if (tile.intersects(area)) {
                m_tiles.remove(k);
                break;
            }
        }
    }
}

int SceneTileCache::paint(QPainter* painter, const QTransform& sceneToDevice, const QRect& deviceRect)
{
    if (!m_scene)
        return 0;
    const double zoom = sceneToDevice.m11();
    const int level = static_cast<int>(std::ceil(std::log2(zoom)));
    const double scale = std::ldexp(1.0, level);
    const double side = kTileSize / scale; // a tile's side in scene units
    const QRectF visible = sceneToDevice.inverted().mapRect(QRectF(deviceRect)).intersected(m_scene->sceneRect());
    int rendered = 0;
    const auto x0 = static_cast<qint64>(std::floor(visible.left() / side));
    const auto x1 = static_cast<qint64>(std::floor(visible.right() / side));
    const auto y0 = static_cast<qint64>(std::floor(visible.top() / side));
    const auto y1 = static_cast<qint64>(std::floor(visible.bottom() / side));
    painter->save();
    painter->setRenderHint(QPainter::SmoothPixmapTransform);
    for (qint64 y = y0; y <= y1; ++y) {
        for (qint64 x = x0; x <= x1; ++x) {
            const QRectF source(static_cast<double>(x) * side, static_cast<double>(y) * side, side, side);
            const quint64 k = key(level, x, y);
            QImage* tile = m_tiles.object(k);
            if (!tile) {
                tile = new QImage(kTileSize, kTileSize, QImage::Format_ARGB32_Premultiplied);
                tile->fill(Qt::white);
                QElapsedTimer timer;
                timer.start();
                QPainter p(tile);
                p.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
                renderSceneArea(m_scene, &p, QRectF(0, 0, kTileSize, kTileSize), source);
                p.end();
                qCDebug(lcTiming, "tile %d/%lld/%lld rendered in %lld ms", level, x, y, timer.elapsed());
                m_tiles.insert(k, tile, kTileSize * kTileSize * 4 / 1024);
                ++rendered;
            }
            painter->drawImage(sceneToDevice.mapRect(source), *tile);
        }
    }
    painter->restore();
    return rendered;
}

} // namespace remat::ui
