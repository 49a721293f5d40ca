// SPDX-License-Identifier: MIT
#pragma once

namespace remat::ui {

/// Runs the desktop application; returns the process exit code.
int runGui(int argc, char** argv);
/// `remat-explorer render GRAPH [--plan P] [options] -o OUT`: the canvas picture, headless.
int runRender(int argc, char** argv);
/// Lets `pareto --plot` and `memory --plot` draw with the desktop app's plots (the desktop
/// program calls it; bin/remat-explorer hands such commands over to that program).
void installCommandPlotWriters();

} // namespace remat::ui
