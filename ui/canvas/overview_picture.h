// SPDX-License-Identifier: MIT
#pragma once

#include "canvas/canvas_state.h"
#include "layout/layout_types.h"

#include <QImage>

#include <functional>
#include <memory>

namespace remat::ui {

/// What the overview map draws, taken on the GUI thread and read on a worker: a copy of the
/// canvas state (plain values and shared, immutable graph, view and plan) and the layout shown.
struct OverviewSource {
    CanvasState state;
    std::shared_ptr<const LayoutResult> layout;
    QRectF sceneRect;
};

/// The whole picture far out (frames, edges, then boxes, as the canvas stacks them) scaled into
/// an image of `pixels` device pixels, from the layout alone: safe on any thread. A null image
/// when `cancelled` says so on the way.
QImage renderOverview(const OverviewSource& source, const QSize& pixels, qreal devicePixelRatio,
    const std::function<bool()>& cancelled);

} // namespace remat::ui
