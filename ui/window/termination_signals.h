// SPDX-License-Identifier: MIT
#pragma once

class QWidget;

namespace remat::ui {

/// SIGTERM, SIGINT and SIGHUP (a logout, `kill PID`, Ctrl+C in the terminal) close `window` as
/// File > Quit does: pending tags are saved and the session ends cleanly, so nothing is lost and the
/// next open offers no recovery. Only SIGKILL and crashes end the app without closing.
void closeOnTerminationSignals(QWidget* window);

} // namespace remat::ui
