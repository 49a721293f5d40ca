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

/// Items per chunk: adding one to a scene takes about a millisecond, a fine enough step for a
/// time budget per event-loop turn.
constexpr std::size_t kChunkItems = 1024;

/// Puts `items` (all of one kind, z `z`) under chunk roots, `kChunkItems` each; with `byPlace`,
/// sorted from the top down first, so that each chunk covers a band of the picture (a query of
/// Qt's index walks every item of each chunk it finds).
void addChunks(std::vector<QGraphicsItem*> items, double z, bool byPlace, CanvasContent& content)
{
    std::vector<std::pair<QRectF, QGraphicsItem*>> placed;
    placed.reserve(items.size());
    for (QGraphicsItem* item : items)
        placed.emplace_back(item->boundingRect(), item);
    if (byPlace) {
        std::stable_sort(placed.begin(), placed.end(), [](const auto& a, const auto& b) {
            return a.first.top() != b.first.top() ? a.first.top() < b.first.top()
                                                  : a.first.left() < b.first.left();
        });
    }
    for (std::size_t first = 0; first < placed.size(); first += kChunkItems) {
        auto root = std::make_unique<CanvasRoot>(z);
        const std::size_t end = std::min(placed.size(), first + kChunkItems);
        for (std::size_t i = first; i < end; ++i)
            placed[i].second->setParentItem(root.get());
        root->setItemCount(end - first);
        content.chunks.push_back(std::move(root));
    }
    content.itemCount += placed.size();
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

std::unique_ptr<CanvasContent> buildCanvas(
    const CanvasState* state, std::shared_ptr<const ViewGraph> view, LayoutResult layout)
{
    auto content = std::make_unique<CanvasContent>();
    const ViewGraph& v = *view;

    content->clusters.reserve(v.clusters.size());
    for (std::size_t c = 0; c < v.clusters.size() && c < layout.clusters.size(); ++c)
        content->clusters.push_back(new ClusterItem(state, v.clusters[c].group, layout.clusters[c]));
    content->boxes.reserve(v.items.size());
    for (std::size_t i = 0; i < v.items.size(); ++i) {
        const ViewItem& vi = v.items[i];
        content->boxes.push_back(vi.isGroup
                ? static_cast<BoxItem*>(new GroupItem(state, static_cast<int>(i), vi.id, layout.boxes[i]))
                : static_cast<BoxItem*>(new NodeItem(state, static_cast<int>(i), vi.id, layout.boxes[i])));
    }
    content->edges.reserve(v.edges.size());
    for (std::size_t e = 0; e < v.edges.size(); ++e)
        content->edges.push_back(new EdgeItem(state, static_cast<int>(e), edgeShape(layout.edges[e])));

    // Frames keep the view's order (a frame before those nested in it): they stack that way.
    addChunks({content->clusters.begin(), content->clusters.end()}, ClusterItem::kZ, false, *content);
    addChunks({content->edges.begin(), content->edges.end()}, EdgeItem::kZ, true, *content);
    addChunks({content->boxes.begin(), content->boxes.end()}, BoxItem::kZ, true, *content);
    content->view = std::move(view);
    content->layout = std::move(layout);
    return content;
}

} // namespace remat::ui
