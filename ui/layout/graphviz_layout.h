// SPDX-License-Identifier: MIT
#pragma once

#include "layout/layout_types.h"

namespace remat::ui {

/// Above this many boxes, dot (even in the U) takes minutes and sfdp takes over.
constexpr std::size_t kDotLimit = 20000;

/// Lays out a request with Graphviz's C API in this process: dot with the backward beside the
/// forward as a U (backward edges reversed with dir=back, forward-to-backward edges with
/// constraint=false); on big graphs the arms alone with network-simplex limits, the
/// forward-to-backward edges drawn as curves across the gap; sfdp with overlap removal beyond
/// kDotLimit. Graphviz is not thread-safe: calls are serialised by a process-wide mutex, so run
/// this on one worker thread. Throws std::runtime_error if Graphviz fails.
LayoutResult layoutWithGraphviz(const LayoutRequest& request);

} // namespace remat::ui
