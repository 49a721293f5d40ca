// SPDX-License-Identifier: MIT
// Gives the headless commands the desktop build's plots (pareto --plot, memory --plot).
#include "cli/plot_writers.h"
#include "graph/error.h"
#include "gui_entry.h"
#include "headless/plot_rendering.h"

namespace remat::ui {
namespace {

void check(const QString& error)
{
    if (!error.isEmpty())
        throw Error(error.toStdString());
}

} // namespace

void installCommandPlotWriters()
{
    cli::installPlotWriters({
        [](const BudgetSession& session, const ParetoResult& result, const std::string& path) {
            check(renderParetoPlot(session, result, QString::fromStdString(path)));
        },
        [](const JointGraph& graph, const MemoryProfile& profile, const std::string& planName,
            const std::string& path) {
            check(renderTimelinePlot(
                graph, profile, QString::fromStdString(planName), QString::fromStdString(path)));
        },
    });
}

} // namespace remat::ui
