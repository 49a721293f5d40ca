// SPDX-License-Identifier: MIT
#pragma once

class QThreadPool;

namespace remat::ui {

/// The pool for our detached background jobs (opening a file, a lesson, a device split): never
/// Qt's global pool. Qt 6.4's raster engine splits every large fill of the GUI thread (96 rows
/// or more: a scaled tile, a scroll bar, a long edge) across QThreadPool::globalInstance() and
/// waits for it, so a job of ours there would make the GUI thread's paints queue behind it, and
/// a worker that lowers its priority would leave those paints to a demoted thread.
QThreadPool& backgroundPool();

} // namespace remat::ui
