// SPDX-License-Identifier: MIT
#include "plots/plot_title.h"

#include <qcustomplot.h>

namespace remat::ui {

QCPTextElement* setPlotTitle(QCustomPlot* plot, QCPTextElement* title, const QString& text)
{
    if (!title) {
        plot->plotLayout()->insertRow(0);
        title = new QCPTextElement(plot, text, QFont(plot->font().family(), 9, QFont::Bold));
        plot->plotLayout()->addElement(0, 0, title);
    }
    title->setText(text);
    plot->replot(QCustomPlot::rpQueuedReplot);
    return title;
}

} // namespace remat::ui
