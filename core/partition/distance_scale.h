// SPDX-License-Identifier: MIT
#pragma once

namespace remat {

/// The min-cut weight's distance factor, Python's `1.1 ** max(min(dist_from_bw, 100), 1)`: the same
/// double C's pow gives (CPython computes float ** int with it), looked up instead of computed
/// for each of a graph's nodes.
double distanceScale(int distFromBackward);

} // namespace remat
