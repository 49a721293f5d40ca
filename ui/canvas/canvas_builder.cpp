// SPDX-License-Identifier: MIT
#include "canvas/canvas_builder.h"

#include <QLineF>

namespace remat::ui {
namespace {

QPainterPath curvePath(const std::vector<QPointF>& curve)
{
    QPainterPath path;
    if (curve.empty())
        return path;
    path.moveTo(curve.front());
    std::size_t i = 1;
    for (; i + 2 < curve.size(); i += 3)
        path.cubicTo(curve[i], curve[i + 1], curve[i + 2]);
    for (; i < curve.size(); ++i)
        path.lineTo(curve[i]);
    return path;
}

/// Graphviz ends a spline at the arrowhead's base; the head spans from there to the tip.
QPolygonF arrowHead(const QPointF& base, const QPointF& tip)
{
    const QLineF axis(base, tip);
    if (axis.length() < 0.5)
        return {};
    const QLineF normal = axis.normalVector().unitVector();
    const QPointF side(normal.dx() * axis.length() * 0.45, normal.dy() * axis.length() * 0.45);
    return QPolygonF({tip, base + side, base - side});
}

} // namespace

EdgeShape edgeShape(const EdgeGeometry& geometry)
{
    EdgeShape shape;
    shape.path = curvePath(geometry.curve);
    const QPointF base = geometry.curve.empty() ? geometry.arrowTip : geometry.curve.back();
    shape.arrow = arrowHead(base, geometry.arrowTip);
    shape.bounds = shape.path.boundingRect().united(shape.arrow.boundingRect()).adjusted(-4, -4, 4, 4);
    return shape;
}

std::unique_ptr<CanvasContent> buildCanvas(const CanvasState* state, std::shared_ptr<const ViewGraph> view, LayoutResult layout)
{
    auto content = std::make_unique<CanvasContent>();
    content->root = std::make_unique<CanvasRoot>();
    CanvasRoot* root = content->root.get();
    const ViewGraph& v = *view;

    content->clusters.reserve(v.clusters.size());
    for (std::size_t c = 0; c < v.clusters.size() && c < layout.clusters.size(); ++c) {
        auto* item = new ClusterItem(state, v.clusters[c].group, layout.clusters[c]);
        item->setParentItem(root);
        content->clusters.push_back(item);
    }
    content->boxes.reserve(v.items.size());
    for (std::size_t i = 0; i < v.items.size(); ++i) {
        const ViewItem& vi = v.items[i];
        BoxItem* item = vi.isGroup ? static_cast<BoxItem*>(new GroupItem(state, static_cast<int>(i), vi.id, layout.boxes[i]))
                                   : static_cast<BoxItem*>(new NodeItem(state, static_cast<int>(i), vi.id, layout.boxes[i]));
        item->setParentItem(root);
        content->boxes.push_back(item);
    }
    content->edges.reserve(v.edges.size());
    for (std::size_t e = 0; e < v.edges.size(); ++e) {
        auto* item = new EdgeItem(state, static_cast<int>(e), edgeShape(layout.edges[e]));
        item->setParentItem(root);
        content->edges.push_back(item);
    }
    content->view = std::move(view);
    content->layout = std::move(layout);
    return content;
}

} // namespace remat::ui
