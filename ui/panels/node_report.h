// SPDX-License-Identifier: MIT
#pragma once

#include "canvas/canvas_state.h"

#include <QString>

namespace remat::ui {

/// HTML for the inspector. Node references are links "node:<id>" so that the inspector can
/// walk the graph.
QString nodeReport(const CanvasState& state, NodeId n);
QString groupReport(const CanvasState& state, int group);
QString emptyReport(const LoadedGraph* graph);

} // namespace remat::ui
