// SPDX-License-Identifier: MIT
#pragma once

#include "canvas/canvas_state.h"

#include <QString>

namespace remat::ui {

/// Rich-text tooltips for canvas items, composed on demand from the latest state.
QString nodeToolTip(const CanvasState& state, NodeId n);
QString groupToolTip(const CanvasState& state, int group);
QString edgeToolTip(const CanvasState& state, int viewEdge);

} // namespace remat::ui
