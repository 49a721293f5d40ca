// SPDX-License-Identifier: MIT
#include "canvas/far_out_painting.h"

#include <QPainter>

#include <algorithm>
#include <iterator>

namespace remat::ui {

QColor devicePartitionColour(int partition)
{
    static const QColor hues[] = {{31, 119, 180}, {255, 127, 14}, {44, 160, 44}, {214, 39, 40},
        {148, 103, 189}, {140, 86, 75}, {227, 119, 194}, {127, 127, 127}, {188, 189, 34}, {23, 190, 207}};
    return hues[static_cast<std::size_t>(partition) % std::size(hues)];
}

QColor planColour(const CanvasPalette& pal, CanvasState::PlanSide side)
{
    switch (side) {
    case CanvasState::OnlyA:
        return pal.planAOnly;
    case CanvasState::OnlyB:
        return pal.planBOnly;
    case CanvasState::InBoth:
        return pal.planBoth;
    case CanvasState::InNeither:
        break;
    }
    return QColor(0xf2, 0xf2, 0xf2);
}

GroupStats groupStatsOf(const CanvasState& state, int group)
{
    const auto g = static_cast<std::size_t>(group);
    return g < state.groupStats.size() ? state.groupStats[g] : GroupStats {};
}

bool isDimmed(const CanvasState& state, int viewItem, bool selected)
{
    return state.anyHighlight && state.highlightOf(viewItem) == Highlight::None && !selected;
}

QColor haloColour(const CanvasState& state, int viewItem, bool selected, bool flashing)
{
    const Highlight h = state.highlightOf(viewItem);
    if (flashing)
        return state.palette.flash;
    if (selected || h == Highlight::Focus)
        return state.palette.selection;
    if (h == Highlight::Producer)
        return state.palette.producers;
    if (h == Highlight::Consumer)
        return state.palette.consumers;
    return {};
}

void paintHalo(QPainter* painter, const QRectF& box, const QColor& colour, double lod)
{
    if (!colour.isValid())
        return;
    const double width = std::max(3.0, 2.5 / std::max(lod, 0.01));
    painter->setBrush(Qt::NoBrush);
    painter->setPen(QPen(colour, width));
    const double m = kHaloMargin / 2 + 1;
    painter->drawRoundedRect(box.adjusted(-m, -m, m, m), 6, 6);
}

void paintNodeFarOut(QPainter* painter, const CanvasState& state, NodeId node, const QRectF& box, double lod)
{
    const CanvasPalette& pal = state.palette;
    const auto flags = state.flags(node);
    QColor colour;
    if (state.comparingPlans()) {
        colour = planColour(pal, state.planSide(node));
    } else if (state.showingDevices()) {
        const int partition = state.devicePartitionOf(node);
        colour = partition >= 0 ? devicePartitionColour(partition) : QColor(0xf2, 0xf2, 0xf2);
    } else if (flags & Saved) {
        colour = pal.saved;
    } else if (flags & Recomputed) {
        colour = pal.recomputed;
    } else {
        const bool removed = flags & (DceRemoved | CseMerged);
        colour = (removed ? QColor(0xf4, 0xf4, 0xf4) : pal.regionFill(state.graph->region(node))).darker(118);
    }
    painter->fillRect(box, colour);
    if (const CheckpointPolicy tag = state.tag(node); tag != CheckpointPolicy::None) {
        painter->setPen(QPen(pal.tagColour(tag), 3.0 / lod));
        painter->setBrush(Qt::NoBrush);
        painter->drawRect(box);
    }
}

void paintGroupCards(QPainter* painter, const CanvasState& state, int group, const QRectF& box)
{
    const Side side = state.graph->groups.group(group).side;
    const QColor fill = state.palette.regionFill(side == Side::Forward ? Region::Forward : Region::Backward);
    const bool tagged = groupStatsOf(state, group).tagged > 0;
    painter->setPen(QPen(fill.darker(170), 1));
    painter->setBrush(fill.darker(112));
    painter->drawRoundedRect(box.translated(5, 5), 6, 6);
    painter->setBrush(fill);
    painter->setPen(QPen(fill.darker(190), tagged ? 1.5 : 1.2));
    painter->drawRoundedRect(box, 6, 6);
}

void paintGroupFarOut(QPainter* painter, const CanvasState& state, int group, const QRectF& box)
{
    paintGroupCards(painter, state, group, box);
    const QRectF inner = box.adjusted(10, 8, -10, -8);
    paintGroupBar(painter, state,
        QRectF(inner.left(), inner.top() + inner.height() * 0.56, inner.width(), inner.height() * 0.44),
        groupStatsOf(state, group));
}

void paintGroupBar(QPainter* painter, const CanvasState& state, const QRectF& bar, const GroupStats& stats)
{
    // Green: saved bytes against the largest sibling; purple strip: share of nodes recomputed;
    // yellow tick: values only PyTorch's reference saves.
    const CanvasPalette& pal = state.palette;
    painter->setPen(Qt::NoPen);
    painter->setBrush(QColor(255, 255, 255, 210));
    painter->drawRect(bar);
    const double strip = std::max(bar.height() * 0.28, 2.0);
    const QRectF bytes(bar.left(), bar.top(), bar.width() * stats.savedShare, bar.height() - strip);
    painter->setBrush(pal.saved);
    painter->drawRect(bytes);
    if (stats.nodes > 0 && stats.recomputed > 0) {
        painter->setBrush(pal.recomputed);
        painter->drawRect(QRectF(bar.left(), bar.bottom() - strip,
            std::max(2.0, bar.width() * stats.recomputed / stats.nodes), strip));
    }
    if (state.showingDevices() && !stats.perDevicePartition.empty()) {
        // The group's split: one segment per device partition, as long as its share of the members.
        double x = bar.left();
        for (std::size_t p = 0; p < stats.perDevicePartition.size(); ++p) {
            const double w = bar.width() * stats.perDevicePartition[p] / std::max(stats.nodes, 1);
            painter->setBrush(devicePartitionColour(static_cast<int>(p)));
            painter->drawRect(QRectF(x, bar.top(), w, bar.height()));
            x += w;
        }
    } else if (state.comparingPlans()) {
        // Two ticks at the right end: how many values only A (blue) and only B (orange) save.
        const double unit = bar.width() / std::max(stats.nodes, 1);
        const double a = stats.onlyA > 0 ? std::max(4.0, unit * stats.onlyA) : 0;
        const double b = stats.onlyB > 0 ? std::max(4.0, unit * stats.onlyB) : 0;
        painter->setBrush(pal.planAOnly);
        painter->drawRect(QRectF(bar.right() - a - b, bar.top(), a, bar.height()));
        painter->setBrush(pal.planBOnly);
        painter->drawRect(QRectF(bar.right() - b, bar.top(), b, bar.height()));
    } else if (state.showsReference() && stats.referenceOnly > 0) {
        painter->setBrush(pal.referenceOnly);
        painter->drawRect(QRectF(bar.right() - 6, bar.top(), 6, bar.height()));
    }
    painter->setBrush(Qt::NoBrush);
    painter->setPen(QPen(QColor(0, 0, 0, 60), 1));
    painter->drawRect(bar);
}

void paintClusterFrame(QPainter* painter, const CanvasState& state, int group, const QRectF& frame)
{
    const Side side = state.graph->groups.group(group).side;
    QColor tint = state.palette.regionFill(side == Side::Forward ? Region::Forward : Region::Backward);
    tint.setAlpha(90);
    // Solid: Qt dashes the whole outline even where it is clipped away, and a frame around a
    // range of blocks is tens of thousands of pixels long.
    painter->setPen(QPen(tint.darker(260), 1.2));
    painter->setBrush(tint);
    painter->drawRoundedRect(frame, 8, 8);
}

void paintEdge(QPainter* painter, const CanvasState& state, int viewEdge, const EdgeShape& shape, double lod)
{
    const CanvasPalette& pal = state.palette;
    const ViewEdge& edge = state.view->edges[static_cast<std::size_t>(viewEdge)];
    bool saved = false;
    bool recomputed = false;
    if (edge.role == EdgeRole::Across) {
        for (NodeId n : edge.sources) {
            const auto f = state.flags(n);
            saved = saved || (f & Saved);
            recomputed = recomputed || (f & Recomputed);
        }
    }
    QColor colour = edge.role == EdgeRole::Down ? pal.edgeForward
        : edge.role == EdgeRole::Up             ? pal.edgeBackward
                                                : pal.edgeAcross;
    double width = 1.3;
    Qt::PenStyle style = Qt::SolidLine;
    const double extent = std::max(shape.bounds.width(), shape.bounds.height());
    if (saved) {
        colour = pal.saved;
        width = 2.4;
    } else if (recomputed) {
        colour = pal.recomputed;
        width = 2;
        // Dashing costs per dash along the whole path, clipped or not: long edges stay solid.
        constexpr double kLongestDashed = 1500;
        if (extent < kLongestDashed)
            style = Qt::DashLine;
    }
    const Highlight from = state.highlightOf(edge.from);
    const Highlight to = state.highlightOf(edge.to);
    if (to == Highlight::Focus && from != Highlight::None) {
        colour = pal.producers;
        width = 3.5;
    } else if (from == Highlight::Focus && to != Highlight::None) {
        colour = pal.consumers;
        width = 3.5;
    } else if (state.anyHighlight) {
        colour.setAlpha(70);
    }
    // An edge between far-apart blocks (a forward value saved for the backward) is a faint
    // hairline until one of its ends is selected: the picture stays readable, and a one-pixel
    // pen is clipped segment by segment instead of stroking the whole long spline.
    constexpr double kFarApart = 2500;
    const bool highlighted = to == Highlight::Focus || from == Highlight::Focus;
    if (!highlighted && extent > kFarApart) {
        colour.setAlpha(std::min(colour.alpha(), 120));
        QPen hairline(colour, 1, Qt::SolidLine);
        hairline.setCosmetic(true);
        painter->setPen(hairline);
        painter->setBrush(Qt::NoBrush);
        painter->drawPath(shape.path);
        return;
    }
    // Far out, keep lines at least a device pixel wide (more for saved values and highlights).
    const double minimumOnScreen = width > 1.5 ? 1.6 : 0.9;
    painter->setPen(QPen(colour, std::max(width, minimumOnScreen / lod), style));
    painter->setBrush(Qt::NoBrush);
    painter->drawPath(shape.path);
    if (lod >= 0.2 && !shape.arrow.isEmpty()) {
        painter->setPen(Qt::NoPen);
        painter->setBrush(colour);
        painter->drawPolygon(shape.arrow);
    }
}

} // namespace remat::ui
