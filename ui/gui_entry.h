// SPDX-License-Identifier: MIT
#pragma once

namespace remat::ui {

/// Runs the desktop application; returns the process exit code.
int runGui(int argc, char** argv);

} // namespace remat::ui
