// SPDX-License-Identifier: MIT
#pragma once

#include "layout/layout_types.h"

namespace remat::ui {

/// Edges we draw ourselves where Graphviz did not route them, as cubic Béziers from source to
/// target with the arrow tip on the target's border.

/// A forward-to-backward edge across the gap between the arms: leaves the source's side facing
/// the target, arrives at the target's facing side, horizontal at both ends.
EdgeGeometry acrossEdge(const QRectF& from, const QRectF& to);

/// An edge within one arm between boxes laid out apart: from the source's bottom to the target's
/// top when the target lies below (`upwards` false), from top to bottom when it lies above
/// (`upwards` true), vertical at both ends; else a straight edge.
EdgeGeometry armEdge(const QRectF& from, const QRectF& to, bool upwards);

/// A straight edge from border to border, for engines that do not route splines.
EdgeGeometry straightEdge(const QRectF& from, const QRectF& to);

} // namespace remat::ui
