// SPDX-License-Identifier: MIT
#pragma once

#include <QLoggingCategory>

namespace remat::ui {

/// Where the time goes between a click and new colours, opening and layout:
/// QT_LOGGING_RULES="remat.timing.debug=true" remat-explorer ...
Q_DECLARE_LOGGING_CATEGORY(lcTiming)

/// Milliseconds on a monotonic clock shared by all threads, for those log lines.
double timingClockMs();

} // namespace remat::ui
