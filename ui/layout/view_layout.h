// SPDX-License-Identifier: MIT
#pragma once

#include "layout/layout_cache.h"
#include "layout/layout_process.h"
#include "layout/view_graph.h"

#include <functional>
#include <optional>

namespace remat::ui {

struct ViewLayoutOptions {
    QString workerProgram; ///< empty: Graphviz in this process (cannot be cancelled)
    bool composeBlocks = true; ///< big grouped pictures laid out unit by unit (composed_layout.h)
    int parallel = 2; ///< worker children at a time
};

/// What happened on the way, for the status bar.
struct ViewLayoutReport {
    bool cached = false;
    QString note; ///< e.g. a cache file that was ignored, and why
};

/// The layout of `request` (the whole picture of `view`): from the cache, else composed from its
/// units' layouts (themselves cached), else from one Graphviz run. Graphviz runs in worker
/// children when a program is given. `progress` is told what is being laid out and for how long.
/// Empty when `stale` turned true on the way. Throws std::runtime_error when Graphviz fails.
std::optional<LayoutResult> layoutView(const LoadedGraph& graph, const ViewGraph& view,
    const LayoutRequest& request, LayoutCache& cache, const ViewLayoutOptions& options,
    const CancelCheck& stale, const std::function<void(const QString&)>& progress, ViewLayoutReport& report);

} // namespace remat::ui
