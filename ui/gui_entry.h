// SPDX-License-Identifier: MIT
#pragma once

namespace remat::ui {

/// Runs the desktop application; returns the process exit code.
int runGui(int argc, char** argv);
/// `remat-explorer render GRAPH [--plan P] [options] -o OUT`: the canvas picture, headless.
int runRender(int argc, char** argv);
/// Lets `pareto --plot` and `memory --plot` draw with the desktop app's plots (a no-op when the
/// app was not built).
void installCommandPlotWriters();

} // namespace remat::ui
