// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

namespace remat {

/// The desktop app (window, --screenshot, --export-*, render, --plot pictures) is a program of its
/// own, lib/remat-explorer/remat-explorer-gui, so that the headless commands never load Qt Widgets,
/// Graphviz or QCustomPlot: this binary hands such a run over to it.

/// Whether a command line (argv without the program) needs the desktop program: `render`, or a
/// command with --plot.
bool drawsPictures(const std::vector<std::string>& args);

/// Replaces this process with the desktop program, same arguments. Returns only when it cannot
/// (not built, not installed, exec failed), with the exit code after printing why on stderr.
int runDesktopProgram(char** argv);

} // namespace remat
