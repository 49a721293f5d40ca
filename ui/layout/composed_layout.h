// SPDX-License-Identifier: MIT
#pragma once

#include "layout/layout_types.h"
#include "layout/view_graph.h"
#include "model/loaded_graph.h"

#include <vector>

namespace remat::ui {

/// Pictures with more boxes than this, and expanded groups in them, are laid out group by group.
constexpr std::size_t kComposeFrom = 800;

/// A big picture cut into units (the boxes directly inside one expanded group, forward and
/// backward apart) that Graphviz lays out alone. Units of the same shape (the repeated blocks of
/// a transformer) share one layout, so Graphviz runs once per distinct shape, not per block.
struct ComposedPlan {
    struct Unit {
        std::vector<int> items; ///< view items in the unit, in the order of its part's boxes
        int shape = 0; ///< index into `shapes`
        int row = 0; ///< units of one row sit side by side: forward left, backward right
        Side side = Side::Forward;
        int position = 0; ///< where it starts in graph order, to order units within a row
    };
    std::vector<Unit> units;
    /// One request per distinct shape, each box as wide as its widest instance.
    std::vector<LayoutRequest> shapes;
    /// Per link of the whole request: its index among its unit's part links, -1 between units.
    std::vector<int> linkInPart;
    int rows = 0;
};

/// Whether `view` is big enough, and grouped, to be laid out unit by unit.
bool shouldCompose(const ViewGraph& view);

ComposedPlan planComposedLayout(const LoadedGraph& graph, const ViewGraph& view, const LayoutRequest& whole);

/// Places each unit's copy of its shape's layout in its row (forward arm down the left, backward
/// up the right), sizes the frames around their members, and routes the edges between units:
/// within an arm from box to box, across the gap for forward-to-backward edges.
LayoutResult composeLayout(
    const ComposedPlan& plan, const LayoutRequest& whole, const std::vector<LayoutResult>& shapeLayouts);

/// Sizes the request's frames around their members (with room for their titles) in a layout
/// whose boxes are placed: for pictures laid out without Graphviz's clusters.
void fitFrames(const LayoutRequest& whole, LayoutResult& result);

} // namespace remat::ui
