// SPDX-License-Identifier: MIT
#pragma once

#include <QSize>
#include <QString>

class QCustomPlot;

namespace remat::ui {

/// Writes a plot as PNG, SVG or PDF (by the file's suffix), atomically: the file appears whole or
/// not at all. Returns an empty string, or what went wrong (naming the file).
QString savePlot(QCustomPlot* plot, const QString& path, QSize size = {});

} // namespace remat::ui
