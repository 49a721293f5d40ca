// SPDX-License-Identifier: MIT
#pragma once

#include "layout/layout_types.h"

#include <functional>
#include <optional>
#include <vector>

namespace remat::ui {

/// Polled while children run: true stops them.
using CancelCheck = std::function<bool()>;
/// Told the seconds elapsed and how many layouts are done, about twice a second.
using ProgressTick = std::function<void(double seconds, std::size_t done)>;

/// The program to start as a layout worker: $REMAT_LAYOUT_WORKER when set, else this binary if
/// its main() serves the worker switch, else empty (layouts then run in this process).
QString layoutWorkerProgram();

/// Lays out `requests` in layout worker children of `program` (see layout_worker.h), at most
/// `parallel` at a time, and returns the results in order. When `cancelled` turns true the
/// running children are killed (SIGKILL: Graphviz cannot be interrupted any other way) and
/// nothing is returned. Throws std::runtime_error when a child cannot start, fails or answers
/// with a layout that does not fit its request. Call from a worker thread: it blocks.
std::optional<std::vector<LayoutResult>> layoutInChildren(const QString& program,
    const std::vector<LayoutRequest>& requests, int parallel, const CancelCheck& cancelled,
    const ProgressTick& tick = {});

} // namespace remat::ui
