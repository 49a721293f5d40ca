// SPDX-License-Identifier: MIT
#include "model/timing_log.h"

#include <QElapsedTimer>

namespace remat::ui {

Q_LOGGING_CATEGORY(lcTiming, "remat.timing", QtWarningMsg)

double timingClockMs()
{
    static const QElapsedTimer clock = [] {
        QElapsedTimer t;
        t.start();
        return t;
    }();
    return static_cast<double>(clock.nsecsElapsed()) / 1e6;
}

} // namespace remat::ui
