// SPDX-License-Identifier: MIT
#include "canvas/scene_tile_cache.h"

#include "canvas/canvas_items.h"
#include "canvas/graph_scene.h"
#include "model/timing_log.h"

#include <QElapsedTimer>
#include <QGraphicsItem>
#include <QGraphicsScene>
#include <QPainter>
#include <QStyleOptionGraphicsItem>

#include <QLineF>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

namespace remat::ui {

namespace {

/// Tile coordinates are kept in 24 bits each, the level in 16.
constexpr qint64 kCoordinateMask = (qint64(1) << 24) - 1;

} // namespace

void paintSceneItems(QGraphicsScene* scene, QPainter* painter, const QRectF& area)
{
    // Unsorted from the index, then by z and, within a z, larger first (a frame before the
    // frames nested in it): Qt's stacking-order sort costs more than painting the items.
    struct Entry {
        double z;
        double area;
        QGraphicsItem* item;
    };
    // Pictures being swapped (GraphScene::setContent): nothing to draw until the new one is
    // complete; a query would also have Qt's index purge the deleted items, a walk of all of it.
    if (const auto* canvas = qobject_cast<const GraphScene*>(scene); canvas && canvas->isSwapping())
        return;
    std::vector<Entry> entries;
    for (QGraphicsItem* item :
        scene->items(area, Qt::IntersectsItemBoundingRect, static_cast<Qt::SortOrder>(-1))) {
        if ((item->flags() & QGraphicsItem::ItemHasNoContents) || !item->isVisible()
            || CanvasRoot::isRetired(item))
            continue;
        const QRectF bounds = item->boundingRect();
        entries.push_back({item->zValue(), bounds.width() * bounds.height(), item});
    }
    std::stable_sort(entries.begin(), entries.end(),
        [](const Entry& a, const Entry& b) { return a.z != b.z ? a.z < b.z : a.area > b.area; });
    QStyleOptionGraphicsItem option;
    const QTransform base = painter->worldTransform();
    for (const Entry& entry : entries) {
        QGraphicsItem* item = entry.item;
        painter->save();
        painter->setWorldTransform(item->sceneTransform() * base);
        option.exposedRect = item->boundingRect();
        option.rect = option.exposedRect.toAlignedRect();
        option.state = item->isSelected() ? QStyle::State_Selected : QStyle::State_None;
        item->paint(painter, &option, nullptr);
        painter->restore();
    }
}

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
    paintSceneItems(scene, painter, source);
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
    return (quint64(level & 0xffff) << 48) | (quint64(x & kCoordinateMask) << 24)
        | quint64(y & kCoordinateMask);
}

SceneTileCache::Place SceneTileCache::placeOf(quint64 k)
{
    // Sign-extend the 16-bit level and the 24-bit tile coordinates.
    return {static_cast<std::int16_t>(k >> 48), static_cast<qint64>((k >> 24) & kCoordinateMask) << 40 >> 40,
        static_cast<qint64>(k & kCoordinateMask) << 40 >> 40};
}

int SceneTileCache::levelFor(double zoom)
{
    return static_cast<int>(std::ceil(std::log2(zoom)));
}

QRectF SceneTileCache::sceneRectOf(const Place& p)
{
    const double side = kTileSize / std::ldexp(1.0, p.level); // a tile's side in scene units
    return {static_cast<double>(p.x) * side, static_cast<double>(p.y) * side, side, side};
}

QList<SceneTileCache::Place> SceneTileCache::placesOver(int level, const QRectF& sceneArea)
{
    QList<Place> places;
    if (sceneArea.isEmpty())
        return places;
    const double side = kTileSize / std::ldexp(1.0, level);
    const auto x0 = static_cast<qint64>(std::floor(sceneArea.left() / side));
    const auto x1 = static_cast<qint64>(std::floor(sceneArea.right() / side));
    const auto y0 = static_cast<qint64>(std::floor(sceneArea.top() / side));
    const auto y1 = static_cast<qint64>(std::floor(sceneArea.bottom() / side));
    for (qint64 y = y0; y <= y1; ++y) {
        for (qint64 x = x0; x <= x1; ++x)
            places.append({level, x, y});
    }
    const QPointF centre = sceneArea.center();
    std::stable_sort(places.begin(), places.end(), [&](const Place& a, const Place& b) {
        return QLineF(sceneRectOf(a).center(), centre).length()
            < QLineF(sceneRectOf(b).center(), centre).length();
    });
    return places;
}

void SceneTileCache::invalidate(const QList<QRectF>& sceneAreas)
{
    if (m_tiles.isEmpty())
        return;
    const QList<quint64> keys = m_tiles.keys();
    for (const quint64 k : keys) {
        const Place place = placeOf(k);
        const QRectF tile = sceneRectOf(place);
        const int n = piecesPerSide(place.level);
        const double piece = tile.width() / n;
        const auto pieceIndex
            = [&](double offset) { return std::clamp(static_cast<int>(offset / piece), 0, n - 1); };
        Tile* cached = m_tiles.object(k);
        for (const QRectF& area : sceneAreas) {
            if (!tile.intersects(area))
                continue;
            // A patch per piece it covers: a step repaints one patch, and the box of a long
            // edge can span the whole tile (far out, a quarter of one took 64 ms).
            const QRectF part = area.intersected(tile);
            for (int row = pieceIndex(part.top() - tile.top()); row <= pieceIndex(part.bottom() - tile.top());
                 ++row) {
                for (int column = pieceIndex(part.left() - tile.left());
                     column <= pieceIndex(part.right() - tile.left()); ++column) {
                    const QRectF pieceArea(
                        tile.left() + column * piece, tile.top() + row * piece, piece, piece);
                    if (const QRectF patch = part.intersected(pieceArea); !patch.isEmpty())
                        cached->stale.append(patch);
                }
            }
        }
        // Beyond this many patches repainting the whole tile is as quick; piece by piece, so
        // that one step stays short.
        constexpr int kMostPatches = 32;
        if (cached->stale.size() > kMostPatches)
            cached->stale = piecesOf(placeOf(k));
    }
}

bool SceneTileCache::ready(const Place& p)
{
    const Tile* tile = m_tiles.object(key(p.level, p.x, p.y));
    return tile && tile->filled && tile->stale.isEmpty();
}

int SceneTileCache::piecesPerSide(int level)
{
    // Far out a tile holds thousands of items, four times more a level further out (40 ms at
    // 1/64; a sixteenth of a tile of gpt_n96 took 64 ms at 1/128): a piece of it at a time, and
    // smaller pieces further out, keep each step within a frame's budget.
    if (level >= -2)
        return 2;
    return std::min(16, 4 << std::max(0, -5 - level));
}

QList<QRectF> SceneTileCache::piecesOf(const Place& p)
{
    const int n = piecesPerSide(p.level);
    const QRectF source = sceneRectOf(p);
    const double piece = source.width() / n;
    QList<QRectF> pieces;
    for (int row = 0; row < n; ++row) {
        for (int column = 0; column < n; ++column)
            pieces.append(QRectF(source.left() + column * piece, source.top() + row * piece, piece, piece));
    }
    return pieces;
}

bool SceneTileCache::bring(const Place& p, const QElapsedTimer& clock, double budgetMs)
{
    const quint64 k = key(p.level, p.x, p.y);
    const QRectF source = sceneRectOf(p);
    if (!source.intersects(m_scene->sceneRect()))
        return false;
    Tile* tile = m_tiles.object(k);
    if (!tile) {
        tile = new Tile;
        tile->image = QImage(kTileSize, kTileSize, QImage::Format_ARGB32_Premultiplied);
        tile->image.fill(Qt::white);
        tile->pieces = piecesOf(p);
        m_tiles.insert(k, tile, kTileSize * kTileSize * 4 / 1024);
        tile = m_tiles.object(k);
        if (!tile)
            return false; // over the cap on its own: cannot happen with a sane cap
    }
    if (tile->pieces.isEmpty() && tile->stale.isEmpty())
        return false;
    QElapsedTimer timer;
    timer.start();
    QPainter painter(&tile->image);
    painter.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    const double scale = kTileSize / source.width();
    int areas = 0;
    // At least one step, so that a tile always gets on.
    while (!tile->pieces.isEmpty() || !tile->stale.isEmpty()) {
        if (areas > 0 && static_cast<double>(clock.nsecsElapsed()) * 1e-6 >= budgetMs)
            break;
        QList<QRectF>& from = tile->pieces.isEmpty() ? tile->stale : tile->pieces;
        const QRectF area = from.takeFirst();
        ++areas;
        // Whole device pixels, so that a patch meets the pixels around it without seams.
        const QRect pixels = QRectF((area.topLeft() - source.topLeft()) * scale, area.size() * scale)
                                 .toAlignedRect()
                                 .intersected(tile->image.rect());
        if (pixels.isEmpty())
            continue;
        const QRectF patch(
            source.topLeft() + QPointF(pixels.topLeft()) / scale, QSizeF(pixels.size()) / scale);
        painter.setCompositionMode(QPainter::CompositionMode_Source);
        painter.fillRect(pixels, Qt::white);
        painter.setCompositionMode(QPainter::CompositionMode_SourceOver);
        renderSceneArea(m_scene, &painter, QRectF(pixels), patch);
    }
    painter.end();
    tile->filled = tile->pieces.isEmpty();
    qCDebug(lcTiming, "tile %d/%lld/%lld: %d area(s) rendered in %lld ms", p.level, p.x, p.y, areas,
        timer.elapsed());
    return true;
}

bool SceneTileCache::smallPatch(const Place& p)
{
    const Tile* tile = m_tiles.object(key(p.level, p.x, p.y));
    if (!tile || !tile->filled || tile->stale.isEmpty())
        return false;
    double area = 0;
    for (const QRectF& r : tile->stale)
        area += r.width() * r.height();
    const QRectF whole = sceneRectOf(p);
    return area < whole.width() * whole.height() / 16;
}

void SceneTileCache::drawStandIn(QPainter* painter, const QTransform& sceneToDevice, const Place& p)
{
    const QRectF area = sceneRectOf(p);
    if (const Tile* stale = m_tiles.object(key(p.level, p.x, p.y)); stale && stale->filled) {
        painter->drawImage(sceneToDevice.mapRect(area), stale->image); // mostly right until repainted
        return;
    }
    // Coarser levels first: one tile covers the whole area (blurry for a moment).
    for (int up = 1; up <= 4; ++up) {
        const int level = p.level - up;
        const double side = kTileSize / std::ldexp(1.0, level);
        const Place coarse {level, static_cast<qint64>(std::floor(area.center().x() / side)),
            static_cast<qint64>(std::floor(area.center().y() / side))};
        const Tile* tile = m_tiles.object(key(coarse.level, coarse.x, coarse.y));
        if (!tile || !tile->filled || !tile->stale.isEmpty())
            continue;
        const QRectF coarseArea = sceneRectOf(coarse);
        const double scale = kTileSize / coarseArea.width();
        const QRectF part((area.topLeft() - coarseArea.topLeft()) * scale, area.size() * scale);
        painter->drawImage(sceneToDevice.mapRect(area), tile->image, part);
        return;
    }
    // Then the next finer level, whichever of its tiles are there.
    for (const Place& fine : placesOver(p.level + 1, area.adjusted(1, 1, -1, -1))) {
        if (const Tile* tile = m_tiles.object(key(fine.level, fine.x, fine.y)); tile && tile->filled)
            painter->drawImage(sceneToDevice.mapRect(sceneRectOf(fine)), tile->image);
    }
}

bool SceneTileCache::paint(
    QPainter* painter, const QTransform& sceneToDevice, const QRect& deviceRect, double budgetMs)
{
    if (!m_scene)
        return false;
    const int level = levelFor(sceneToDevice.m11());
    const QRectF visible
        = sceneToDevice.inverted().mapRect(QRectF(deviceRect)).intersected(m_scene->sceneRect());
    QElapsedTimer timer;
    timer.start();
    bool pending = false;
    painter->save();
    painter->setRenderHint(QPainter::SmoothPixmapTransform);
    for (const Place& p : placesOver(level, visible)) {
        if (!ready(p)) {
            // A few changed boxes (a click) are repainted beyond the budget, so that they show
            // in this frame; a recolour of hundreds spreads over the next frames.
            const double allowed = smallPatch(p) ? std::max(budgetMs, kPatchBudgetMs) : budgetMs;
            if (static_cast<double>(timer.nsecsElapsed()) * 1e-6 < allowed)
                bring(p, timer, allowed);
        }
        if (ready(p)) {
            painter->drawImage(
                sceneToDevice.mapRect(sceneRectOf(p)), m_tiles.object(key(p.level, p.x, p.y))->image);
        } else {
            drawStandIn(painter, sceneToDevice, p);
            pending = true;
        }
    }
    painter->restore();
    return pending;
}

QList<QRect> SceneTileCache::renderPending(
    const QTransform& sceneToDevice, const QRect& viewRect, double budgetMs, bool ahead, bool& more)
{
    QList<QRect> updated;
    more = false;
    if (!m_scene)
        return updated;
    QElapsedTimer timer;
    timer.start();
    const int level = levelFor(sceneToDevice.m11());
    const QRectF visible = sceneToDevice.inverted().mapRect(QRectF(viewRect));
    const QRectF bounds = m_scene->sceneRect();
    // Visible tiles first; then, ahead of need, a margin of half a view around it and the
    // next levels in and out over the view.
    const double mx = visible.width() / 2;
    const double my = visible.height() / 2;
    QList<Place> work = placesOver(level, visible.intersected(bounds));
    const qsizetype visibleCount = work.size();
    if (ahead) {
        work += placesOver(level, visible.adjusted(-mx, -my, mx, my).intersected(bounds));
        if (coversZoom(std::ldexp(1.0, level)))
            work += placesOver(level + 1, visible.intersected(bounds));
        work += placesOver(level - 1, visible.intersected(bounds));
    }
    qsizetype index = 0;
    for (const Place& p : work) {
        const bool isVisible = index++ < visibleCount;
        if (ready(p))
            continue;
        if (static_cast<double>(timer.nsecsElapsed()) * 1e-6 >= budgetMs) {
            more = true;
            break;
        }
        if (bring(p, timer, budgetMs) && isVisible && ready(p))
            updated.append(sceneToDevice.mapRect(sceneRectOf(p)).toAlignedRect().intersected(viewRect));
    }
    return updated;
}

} // namespace remat::ui
