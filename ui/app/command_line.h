// SPDX-License-Identifier: MIT
#pragma once

#include <QSize>
#include <QStringList>

class QCoreApplication;

namespace remat::ui {

/// What the desktop app was asked to do on its command line.
struct GuiOptions {
    QString graph;            ///< empty: the bundled sample
    QString screenshot;       ///< render the window to this PNG and exit
    QString zoom;             ///< "fit" (default), a factor ("0.5"), or empty
    QString select;           ///< node to select and centre on
    QStringList tags;         ///< "NAME=POLICY" applied before the screenshot (not saved)
    QString expand;           ///< "all", or a group label to expand
    QSize windowSize{1600, 1000};
    bool measure = false;     ///< print open / first picture / re-partition timings and exit
    int measureRepeats = 10;
};

/// Parses the arguments; on --help/--version/errors prints and returns the exit code in `exitCode`.
bool parseGuiOptions(const QCoreApplication& app, GuiOptions& options, int& exitCode);

} // namespace remat::ui
