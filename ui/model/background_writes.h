// SPDX-License-Identifier: MIT
#pragma once

#include <functional>

namespace remat::ui::BackgroundWrites {

/// Runs `job` on the one thread that writes the app's own files (settings, the autosaved
/// project), after every job posted before it. Those writes fsync, and an fsync can take 100 ms
/// and more while the disk is busy: the GUI thread must not wait for one (the latency test caught
/// the settings' sync when a graph opens).
void post(std::function<void()> job);

/// Returns once every job posted so far has run: before the app quits, and before a test looks
/// at the files.
void flush();

} // namespace remat::ui::BackgroundWrites
