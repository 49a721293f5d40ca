// SPDX-License-Identifier: MIT
#pragma once

namespace remat::ui {

/// Headless runs (pictures, exports, screenshots) are scripted, and their stderr is read by people
/// and scripts. Keep it to what we say: give a run with no XDG_RUNTIME_DIR (usual under cron, CI or
/// a bare ssh) a private folder like Qt's fallback, which Qt would otherwise announce each run, and
/// drop the offscreen platform's notices that it ignores window size hints and raising.
/// Interactive runs keep every Qt message. Call before the application is made.
void quietHeadlessRun();

} // namespace remat::ui
