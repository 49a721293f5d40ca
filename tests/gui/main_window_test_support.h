// SPDX-License-Identifier: MIT
// Shared by the GUI tests that drive a whole main window.
#pragma once

#include "window/main_window.h"
#include "canvas/graph_canvas.h"
#include "canvas/graph_scene.h"
#include "document/graph_document.h"

namespace remat::ui::test {

/// Background work (open, layout, partition) may take a while on a loaded 2-core machine.
constexpr int kTimeoutMs = 60'000;

/// Nothing running, a graph open, a partition shown.
inline bool idle(const MainWindow& w)
{
    return !w.isBusy() && w.document()->graph() && w.document()->outcome() && w.canvas()->scene()->hasContent();
}

} // namespace remat::ui::test
