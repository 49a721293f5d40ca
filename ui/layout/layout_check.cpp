// SPDX-License-Identifier: MIT
#include "layout/layout_check.h"

#include <cmath>

namespace remat::ui {
namespace {

bool finite(const QPointF& p)
{
    return std::isfinite(p.x()) && std::isfinite(p.y());
}

bool finite(const QRectF& r)
{
    return finite(r.topLeft()) && std::isfinite(r.width()) && std::isfinite(r.height());
}

/// Box sizes come from the request; a cached box of another size belongs to another picture.
bool sameSize(const QRectF& box, const LayoutBox& wanted)
{
    constexpr double kTolerance = 0.01;
    return std::abs(box.width() - wanted.width) <= kTolerance
        && std::abs(box.height() - wanted.height) <= kTolerance;
}

} // namespace

QString layoutMismatch(const LayoutRequest& request, const LayoutResult& layout)
{
    if (layout.boxes.size() != request.boxes.size())
        return QStringLiteral("%1 boxes where the graph shows %2")
            .arg(layout.boxes.size())
            .arg(request.boxes.size());
    if (layout.edges.size() != request.links.size())
        return QStringLiteral("%1 edges where the graph shows %2")
            .arg(layout.edges.size())
            .arg(request.links.size());
    if (layout.clusters.size() != request.clusters.size())
        return QStringLiteral("%1 frames where the graph shows %2")
            .arg(layout.clusters.size())
            .arg(request.clusters.size());
    if (!finite(layout.bounds))
        return QStringLiteral("bounds are not finite numbers");
    for (std::size_t i = 0; i < layout.boxes.size(); ++i) {
        if (!finite(layout.boxes[i]))
            return QStringLiteral("box %1 has coordinates that are not finite numbers").arg(i);
        if (!sameSize(layout.boxes[i], request.boxes[i]))
            return QStringLiteral("box %1 is %2 x %3, the graph wants %4 x %5")
                .arg(i)
                .arg(layout.boxes[i].width())
                .arg(layout.boxes[i].height())
                .arg(request.boxes[i].width)
                .arg(request.boxes[i].height);
    }
    for (std::size_t c = 0; c < layout.clusters.size(); ++c) {
        if (!finite(layout.clusters[c]))
            return QStringLiteral("frame %1 has coordinates that are not finite numbers").arg(c);
    }
    for (std::size_t e = 0; e < layout.edges.size(); ++e) {
        const EdgeGeometry& edge = layout.edges[e];
        // A cubic Bézier path: a start point, then whole (control, control, end) triples.
        if (edge.curve.size() < 4 || edge.curve.size() % 3 != 1)
            return QStringLiteral("edge %1 has %2 curve points, not 1 + 3k").arg(e).arg(edge.curve.size());
        if (!finite(edge.arrowTip))
            return QStringLiteral("edge %1 has an arrow tip that is not finite").arg(e);
        for (const QPointF& p : edge.curve) {
            if (!finite(p))
                return QStringLiteral("edge %1 has a curve point that is not finite").arg(e);
        }
    }
    return {};
}

} // namespace remat::ui
