// SPDX-License-Identifier: MIT
#pragma once

#include <vector>

class QCPItemText;

namespace remat::ui {

/// Places the labels of a plot's points so that each reads whole: turned away from the nearer
/// edges of the plot (left of a point in the right half, above one in the lower half), then, in
/// order of x, each lifted a line at a time further from its point until its text clears every
/// label placed before it. Works in pixels: call it once the plot is laid out (QCustomPlot's
/// afterLayout), again after every change of size or range.
void placePointLabels(const std::vector<QCPItemText*>& labels);

} // namespace remat::ui
