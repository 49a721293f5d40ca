// SPDX-License-Identifier: MIT
#pragma once

#include "canvas/canvas_state.h"

#include <QColor>
#include <QPainterPath>
#include <QPolygonF>
#include <QRectF>

class QPainter;

namespace remat::ui {

// How the canvas looks from far out, drawn from the canvas state and geometry alone: the items
// paint with these, and so does the overview map, which draws the whole picture on a worker
// thread from the layout and a copy of the state (it never touches the items).

/// A device partition's colour: distinct hues, repeating after ten.
QColor devicePartitionColour(int partition);
/// A node's fill while two plans are compared: what each saves, the rest washed out.
QColor planColour(const CanvasPalette& palette, CanvasState::PlanSide side);

/// A group's decisions summed, or none for a group out of range.
GroupStats groupStatsOf(const CanvasState& state, int group);
/// Faded: something is highlighted and this box is not part of it.
bool isDimmed(const CanvasState& state, int viewItem, bool selected);
/// The halo around a box (a what-if flash, the selection, producers or consumers of the
/// selection); invalid when it has none.
QColor haloColour(const CanvasState& state, int viewItem, bool selected, bool flashing);
/// Draws that halo around `box`, never thinner than 2.5 device pixels.
void paintHalo(QPainter* painter, const QRectF& box, const QColor& colour, double lod);

/// A node a few pixels wide: one colour, decision first; a frame in the tag's colour.
void paintNodeFarOut(QPainter* painter, const CanvasState& state, NodeId node, const QRectF& box, double lod);
/// The opacity of a dimmed box.
constexpr double kDimmedOpacity = 0.55;
/// Room a halo takes around a box.
constexpr double kHaloMargin = 4;

/// A collapsed group's stack of cards: this box stands for many.
void paintGroupCards(QPainter* painter, const CanvasState& state, int group, const QRectF& box);
/// A collapsed group from far out: its cards and a tall bar.
void paintGroupFarOut(QPainter* painter, const CanvasState& state, int group, const QRectF& box);
/// A group's bar: saved bytes against its siblings, the share recomputed, and the comparison,
/// device split or PyTorch's reference at the right end.
void paintGroupBar(QPainter* painter, const CanvasState& state, const QRectF& bar, const GroupStats& stats);
/// An expanded group's frame, without its title.
void paintClusterFrame(QPainter* painter, const CanvasState& state, int group, const QRectF& frame);

/// An edge's spline, arrowhead and the box around both.
struct EdgeShape {
    QPainterPath path;
    QPolygonF arrow;
    QRectF bounds;
};
/// Coloured by what flows along it (saved, recomputed) and by the selection's neighbourhood.
void paintEdge(QPainter* painter, const CanvasState& state, int viewEdge, const EdgeShape& shape, double lod);

} // namespace remat::ui
