// SPDX-License-Identifier: MIT
#include "document/plan_export.h"

#include "budget/budget_io.h"
#include "graph/error.h"
#include "install/data_dir.h"
#include "io/file_text.h"
#include "io/plan_json.h"
#include "io/plan_script.h"
#include "model/budget_outcome.h"

#include <QDir>
#include <QFileInfo>
#include <QObject>

#include <algorithm>

namespace remat::ui {
namespace {

/// Quoted for a POSIX shell when it holds anything but safe characters.
QString shellQuoted(const QString& text)
{
    static const QString safe = QStringLiteral("/._-+=:,@%");
    const bool plain = std::all_of(
        text.begin(), text.end(), [](QChar c) { return c.isLetterOrNumber() || safe.contains(c); });
    if (plain && !text.isEmpty())
        return text;
    QString quoted = text;
    quoted.replace(QLatin1Char('\''), QStringLiteral("'\\''"));
    return QLatin1Char('\'') + quoted + QLatin1Char('\'');
}

} // namespace

std::string planLabel(const PartitionOutcome& outcome)
{
    if (!outcome.budget)
        return {}; // the result's own partitioner and rules say it
    const BudgetOutcome& b = *outcome.budget;
    return budgetPlanLabel(b.plan->budget, b.settings.solver, b.settings.estimator, b.device);
}

std::string planFileText(const LoadedGraph& graph, const PartitionOutcome& outcome)
{
    if (!outcome.ok())
        throw Error(graph.displayName.toStdString() + ": there is no partition to export"
            + (outcome.error.isEmpty() ? std::string() : " (" + outcome.error.toStdString() + ")"));
    PlanExtras extras;
    if (outcome.budget) {
        const BudgetOutcome& b = *outcome.budget;
        extras = budgetPlanExtras(graph.graph, *b.plan, b.runtimeUnit);
        addBudgetSettings(extras, b.settings.solver, b.settings.estimator, b.device);
    }
    return planToJson(graph.graph, *outcome.result, extras);
}

void writePlanFile(const QString& path, const LoadedGraph& graph, const PartitionOutcome& outcome)
{
    writeFileAtomically(path.toStdString(), planFileText(graph, outcome));
}

void writePlanAndScript(const QString& planPath, const QString& scriptPath, const QString& toolsDir,
    const LoadedGraph& graph, const PartitionOutcome& outcome)
{
    if (!isToolsDir(toolsDir))
        throw Error(toolsDir.toStdString()
            + ": not the samples folder (apply_plan.py and export_joint_graph.py are missing)");
    // The script rebuilds the model relative to the graph's folder (its source.recipe).
    const QFileInfo graphFile(QString::fromStdString(graph.graph.filePath()));
    if (!graphFile.isAbsolute() || !graphFile.exists())
        throw Error(graph.displayName.toStdString()
            + ": the script needs the graph file on disk, beside what built it; "
              "open the file itself (File > Open) rather than a bundled copy");
    const std::string plan = planFileText(graph, outcome);
    const std::string script
        = planRunnerScript(graph.graph, *outcome.result, QFileInfo(planPath).absoluteFilePath().toStdString(),
            QFileInfo(toolsDir).absoluteFilePath().toStdString(), planLabel(outcome));
    writeFileAtomically(planPath.toStdString(), plan);
    writeFileAtomically(scriptPath.toStdString(), script);
}

QString planPathForScript(const QString& scriptPath)
{
    const QFileInfo script(scriptPath);
    QString base = script.completeBaseName();
    if (base.startsWith(QLatin1String("run_")) && base.size() > 4)
        base = base.mid(4);
    return script.dir().filePath(base + QStringLiteral(".plan.json"));
}

bool isToolsDir(const QString& dir)
{
    const QDir d(dir);
    return !dir.isEmpty() && d.exists(QStringLiteral("apply_plan.py"))
        && d.exists(QStringLiteral("export_joint_graph.py"));
}

QString defaultToolsDir()
{
    const QString python = QString::fromStdString((dataDir() / "python").string());
    return !dataDir().empty() && isToolsDir(python) ? python : QString();
}

QString pythonInterpreter()
{
    return QStringLiteral("/usr/bin/python3");
}

QString scriptCommand(const QString& scriptPath)
{
    return pythonInterpreter() + QLatin1Char(' ')
        + shellQuoted(QDir::toNativeSeparators(QFileInfo(scriptPath).absoluteFilePath()));
}

} // namespace remat::ui
