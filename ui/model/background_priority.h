// SPDX-License-Identifier: MIT
#pragma once

namespace remat::ui {

/// Lowers the calling worker thread's scheduling priority a little (Linux: nice + 5, once per
/// thread; threads it starts inherit it). Heavy work (sweeps on every core, partitions, layouts)
/// then leaves the CPU to the GUI thread, and to the threads of Qt's raster engine, which splits
/// a large fill across its own pool while the GUI thread waits: on a saturated machine that wait,
/// not our painting, made the longest GUI stalls.
void lowerThreadPriority();

} // namespace remat::ui
