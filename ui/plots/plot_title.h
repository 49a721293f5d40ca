// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

class QCPTextElement;
class QCustomPlot;

namespace remat::ui {

/// Shows `title` in a row above the plot, creating that row the first time (`title` is null then);
/// returns the title element to pass next time.
QCPTextElement* setPlotTitle(QCustomPlot* plot, QCPTextElement* title, const QString& text);

} // namespace remat::ui
