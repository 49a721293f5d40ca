// SPDX-License-Identifier: MIT
#pragma once

#include "canvas/canvas_items.h"
#include "layout/layout_types.h"

#include <memory>

namespace remat::ui {

/// A finished picture, built off the GUI thread: its boxes, frames and edges in chunks (not yet
/// in a scene), and lookup tables into them.
struct CanvasContent {
    /// Frames first (in the view's order, outer before inner), then edges and boxes, each kind in
    /// bands from the top down. GraphScene releases them into the scene in this order, a few per turn.
    std::vector<std::unique_ptr<CanvasRoot>> chunks;
    std::size_t itemCount = 0;
    std::shared_ptr<const ViewGraph> view;
    LayoutResult layout;
    std::vector<BoxItem*> boxes; ///< per view item
    std::vector<ClusterItem*> clusters; ///< per view cluster
    std::vector<EdgeItem*> edges; ///< per view edge
};

/// An edge's spline and arrowhead as the canvas draws them.
EdgeShape edgeShape(const EdgeGeometry& geometry);

/// Creates the items of a laid-out view (hotspot's flame graph pattern: items are plain objects
/// until the GUI thread adds them to the scene). `state` is only stored, never read here.
std::unique_ptr<CanvasContent> buildCanvas(
    const CanvasState* state, std::shared_ptr<const ViewGraph> view, LayoutResult layout);

} // namespace remat::ui
