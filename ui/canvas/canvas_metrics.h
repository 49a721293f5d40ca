// SPDX-License-Identifier: MIT
#pragma once

#include "model/loaded_graph.h"

#include <QFont>
#include <QSizeF>

namespace remat::ui {

/// Fonts and box sizes of the canvas, in scene units (pixels at 100 % zoom). Fonts are sized in
/// pixels so that the layout does not depend on the screen's DPI; Qt scales for high-DPI.
struct CanvasMetrics {
    static constexpr double kPadding = 6;
    static constexpr double kStripe = 5; ///< the region colour bar on a node's left edge
    static constexpr double kNameLine = 15;
    static constexpr double kDetailLine = 14;
    static constexpr double kNodeHeight = kPadding * 2 + kNameLine + kDetailLine * 2;
    static constexpr double kMinNodeWidth = 128;
    static constexpr double kMaxNodeWidth = 236;
    static constexpr double kBadgeWidth = 22;
    static constexpr double kGroupWidth = 260;
    static constexpr double kGroupHeight = 86;
    static constexpr double kClusterHeader = 24;

    static QFont nameFont();
    static QFont detailFont();
    static QFont titleFont();

    /// Box size for a node: wide enough for its name, op and value line, within limits.
    static QSizeF nodeSize(const NodeLabel& label);
    static QSizeF groupSize() { return {kGroupWidth, kGroupHeight}; }
};

} // namespace remat::ui
