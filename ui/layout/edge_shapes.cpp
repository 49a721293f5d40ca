// SPDX-License-Identifier: MIT
#include "layout/edge_shapes.h"

#include <QLineF>

#include <algorithm>
#include <cmath>

namespace remat::ui {
namespace {

constexpr double kArrowLength = 7.0;

} // namespace

EdgeGeometry acrossEdge(const QRectF& from, const QRectF& to)
{
    const bool rightwards = to.center().x() >= from.center().x();
    const QPointF start(rightwards ? from.right() : from.left(), from.center().y());
    const QPointF tip(rightwards ? to.left() : to.right(), to.center().y());
    const double head = rightwards ? -kArrowLength : kArrowLength;
    const QPointF end(tip.x() + head, tip.y());
    const double bend = std::max(std::abs(end.x() - start.x()) * 0.5, 30.0) * (rightwards ? 1 : -1);
    EdgeGeometry e;
    e.curve = {start, start + QPointF(bend, 0), end - QPointF(bend, 0), end};
    e.arrowTip = tip;
    return e;
}

EdgeGeometry armEdge(const QRectF& from, const QRectF& to, bool upwards)
{
    const QPointF start(from.center().x(), upwards ? from.top() : from.bottom());
    const QPointF tip(to.center().x(), upwards ? to.bottom() : to.top());
    const double direction = upwards ? -1.0 : 1.0;
    const double rise = (tip.y() - start.y()) * direction;
    if (rise < 2 * kArrowLength)
        return straightEdge(from, to);
    const QPointF end(tip.x(), tip.y() - direction * kArrowLength);
    const double bend = std::min(rise * 0.4, 200.0) * direction;
    EdgeGeometry e;
    e.curve = {start, start + QPointF(0, bend), end - QPointF(0, bend), end};
    e.arrowTip = tip;
    return e;
}

EdgeGeometry straightEdge(const QRectF& from, const QRectF& to)
{
    auto clip = [](const QRectF& box, const QPointF& inside, const QPointF& outside) {
        const QLineF line(inside, outside);
        const QLineF sides[] = {{box.topLeft(), box.topRight()}, {box.topRight(), box.bottomRight()},
            {box.bottomRight(), box.bottomLeft()}, {box.bottomLeft(), box.topLeft()}};
        QPointF hit;
        for (const QLineF& side : sides) {
            if (line.intersects(side, &hit) == QLineF::BoundedIntersection)
                return hit;
        }
        return inside;
    };
    const QPointF a = clip(from, from.center(), to.center());
    const QPointF b = clip(to, to.center(), from.center());
    EdgeGeometry e;
    e.curve = {a, a + (b - a) / 3, a + (b - a) * 2 / 3, b};
    e.arrowTip = b;
    return e;
}

} // namespace remat::ui
