// SPDX-License-Identifier: MIT
#include "canvas/overview_picture.h"

#include "canvas/canvas_builder.h"
#include "canvas/far_out_painting.h"

#include <QPainter>

namespace remat::ui {

QImage renderOverview(const OverviewSource& source, const QSize& pixels, qreal devicePixelRatio,
    const std::function<bool()>& cancelled)
{
    const CanvasState& state = source.state;
    if (!source.layout || !state.view || !state.graph || pixels.isEmpty() || source.sceneRect.isEmpty())
        return {};
    const LayoutResult& layout = *source.layout;
    const ViewGraph& view = *state.view;
    QImage image(pixels, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(devicePixelRatio);
    image.fill(Qt::white);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    const double lod = pixels.width() / devicePixelRatio / source.sceneRect.width();
    painter.scale(lod, lod);
    painter.translate(-source.sceneRect.topLeft());

    // A check every so many items: a newer picture makes this one stale within a few ms.
    constexpr std::size_t kCheckEvery = 512;
    std::size_t drawn = 0;
    auto stop = [&] { return ++drawn % kCheckEvery == 0 && cancelled && cancelled(); };

    for (std::size_t c = 0; c < view.clusters.size() && c < layout.clusters.size(); ++c) // outermost first
        paintClusterFrame(&painter, state, view.clusters[c].group, layout.clusters[c]);
    for (std::size_t e = 0; e < view.edges.size() && e < layout.edges.size(); ++e) {
        if (stop())
            return {};
        paintEdge(&painter, state, static_cast<int>(e), edgeShape(layout.edges[e]), lod);
    }
    for (std::size_t i = 0; i < view.items.size() && i < layout.boxes.size(); ++i) {
        if (stop())
            return {};
        const ViewItem& item = view.items[i];
        const QRectF& box = layout.boxes[i];
        const int viewItem = static_cast<int>(i);
        // Selected boxes are the selection's focus in the state: no item to ask.
        painter.setOpacity(isDimmed(state, viewItem, false) ? kDimmedOpacity : 1.0);
        bool flashing = false;
        if (item.isGroup) {
            paintGroupFarOut(&painter, state, item.id, box);
            flashing = groupStatsOf(state, item.id).flashing > 0;
        } else {
            paintNodeFarOut(&painter, state, item.id, box, lod);
            flashing = state.isFlashing(item.id);
        }
        paintHalo(&painter, box, haloColour(state, viewItem, false, flashing), lod);
    }
    return image;
}

} // namespace remat::ui
