// SPDX-License-Identifier: MIT
#include "canvas/canvas_metrics.h"

#include <QFontMetricsF>

#include <algorithm>
#include <cmath>

namespace remat::ui {

QFont CanvasMetrics::nameFont()
{
    QFont f;
    f.setPixelSize(12);
    f.setBold(true);
    return f;
}

QFont CanvasMetrics::detailFont()
{
    QFont f;
    f.setPixelSize(11);
    return f;
}

QFont CanvasMetrics::titleFont()
{
    QFont f;
    f.setPixelSize(14);
    f.setBold(true);
    return f;
}

QSizeF CanvasMetrics::nodeSize(const NodeLabel& label)
{
    // QFontMetricsF is safe off the GUI thread (painting on a QImage in a worker relies on it).
    static thread_local const QFontMetricsF nameMetrics(nameFont());
    static thread_local const QFontMetricsF detailMetrics(detailFont());
    const double name = nameMetrics.horizontalAdvance(label.name) + kBadgeWidth * 2;
    const double op = detailMetrics.horizontalAdvance(label.op);
    const double value
        = detailMetrics.horizontalAdvance(label.value) + detailMetrics.horizontalAdvance(label.size) + 10;
    const double width = std::max({name, op, value}) + kPadding * 2 + kStripe;
    return {std::clamp(std::ceil(width), kMinNodeWidth, kMaxNodeWidth), kNodeHeight};
}

} // namespace remat::ui
