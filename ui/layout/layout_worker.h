// SPDX-License-Identifier: MIT
#pragma once

namespace remat::ui {

/// No Qt here: main() includes it in builds without the desktop app too.
/// The hidden command line switch that turns our binary into a layout worker: it reads a
/// serialized LayoutRequest on stdin, lays it out with Graphviz and writes the serialized
/// LayoutResult on stdout (exit 0), or a one-line reason on stderr (exit 1). Graphviz runs in
/// that child so that Cancel and Quit can kill it at once.
inline constexpr char kLayoutWorkerSwitch[] = "--layout-worker";

/// Called first thing in main(): records that this binary serves layout requests, and when
/// argv[1] is the switch, serves one and returns true with the process's exit code.
bool serveLayoutWorker(int argc, char** argv, int& exitCode);

/// Whether this binary's main() called serveLayoutWorker() (so it can be its own worker).
bool servesLayoutWorker();

} // namespace remat::ui
