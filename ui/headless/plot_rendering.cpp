// SPDX-License-Identifier: MIT
#include "headless/plot_rendering.h"
#include "headless/quiet_headless_run.h"

#include "budget/budget_session.h"

#include "plots/pareto_plot.h"
#include "plots/plot_export.h"
#include "plots/timeline_plot.h"

#include <QApplication>
#include <QFileInfo>

#include <memory>

namespace remat::ui {
namespace {

const QSize kPictureSize(1100, 680);

/// Widgets need an application; the commands run without a display.
void ensureApplication()
{
    if (QCoreApplication::instance())
        return;
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    quietHeadlessRun();
    static int argc = 1;
    static char name[] = "remat-explorer";
    static char* argv[] = {name, nullptr};
    static const std::unique_ptr<QApplication> app = std::make_unique<QApplication>(argc, argv);
}

QString fileName(const JointGraph& graph)
{
    return QFileInfo(QString::fromStdString(graph.filePath())).fileName();
}

} // namespace

QString renderParetoPlot(const BudgetSession& session, const ParetoResult& result, const QString& path)
{
    ensureApplication();
    auto snapshot = std::make_shared<ParetoSnapshot>();
    snapshot->result = result;
    snapshot->recorded = recordedBudgetPlans(session);
    snapshot->finished = !result.cancelled;
    ParetoPlot plot;
    plot.resize(kPictureSize);
    plot.setSnapshot(std::move(snapshot));
    plot.setTitle(QStringLiteral("%1 — every memory budget from 0 to 1 (%2 estimator, torch-2.14 rules)")
                      .arg(fileName(session.graph()), QString::fromStdString(result.runtimeUnit)));
    return savePlot(plot.plot(), path, kPictureSize);
}

QString renderTimelinePlot(
    const JointGraph& graph, const MemoryProfile& profile, const QString& planName, const QString& path)
{
    ensureApplication();
    auto planProfile = std::make_shared<PlanProfile>();
    planProfile->label = planName;
    planProfile->profile = profile;
    TimelinePlot plot;
    plot.resize(kPictureSize);
    plot.setTitle(QStringLiteral("%1 — memory of %2, step by step").arg(fileName(graph), planName));
    plot.setProfile(std::shared_ptr<const JointGraph>(&graph, [](const JointGraph*) {}),
        std::move(planProfile)); // borrowed for this call
    return savePlot(plot.plot(), path, kPictureSize);
}

} // namespace remat::ui
