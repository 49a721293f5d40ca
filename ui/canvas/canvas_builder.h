// SPDX-License-Identifier: MIT
#pragma once

#include "canvas/canvas_items.h"
#include "layout/layout_types.h"

#include <memory>

namespace remat::ui {

/// A finished picture, built off the GUI thread: a root item (not yet in a scene) holding every
/// box, frame and edge, and lookup tables into it.
struct CanvasContent {
    std::unique_ptr<CanvasRoot> root;
    std::shared_ptr<const ViewGraph> view;
    LayoutResult layout;
    std::vector<BoxItem*> boxes;        ///< per view item
    std::vector<ClusterItem*> clusters; ///< per view cluster
    std::vector<EdgeItem*> edges;       ///< per view edge
};

/// An edge's spline and arrowhead as the canvas draws them.
EdgeShape edgeShape(const EdgeGeometry& geometry);

/// Creates the items of a laid-out view (hotspot's flame graph pattern: items are plain objects
/// until the GUI thread adds the root to the scene). `state` is only stored, never read here.
std::unique_ptr<CanvasContent> buildCanvas(const CanvasState* state, std::shared_ptr<const ViewGraph> view,
                                           LayoutResult layout);

} // namespace remat::ui
