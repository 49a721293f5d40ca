// SPDX-License-Identifier: MIT
#include "model/budget_text.h"

#include "budget/region_budget.h"
#include "budget/runtime_text.h"
#include "model/node_text.h"
#include "model/qt_strings.h"

#include <QObject>

namespace remat::ui {
namespace {

QString row(const QString& name, const QString& value, const QString& tip = {})
{
    // Double quotes: toHtmlEscaped leaves apostrophes, and "PyTorch's mem_ratio" ended a quoted
    // attribute after "PyTorch".
    const QString title
        = tip.isEmpty() ? QString() : QStringLiteral(" title=\"%1\"").arg(tip.toHtmlEscaped());
    return QStringLiteral("<tr><td style='padding-right:8px; color:#555'%1>%2</td><td>%3</td></tr>")
        .arg(title, name, value);
}

} // namespace

QString formatRuntime(double value, std::string_view unit)
{
    return QString::fromStdString(runtimeText(value, unit));
}

QString budgetStageText(const BudgetOutcome& budget)
{
    const BudgetedPlan& plan = *budget.plan;
    QString text = toQString(stageName(plan.stage));
    if (plan.stage == BudgetStage::Knapsack)
        text += QObject::tr(" (%1, %2 candidates, %3 allowed to be recomputed)")
                    .arg(toQString(solverName(budget.settings.solver)))
                    .arg(budget.candidates)
                    .arg(plan.decision.knapsack.recomputed.size());
    return text;
}

QString budgetStageExplanation(BudgetStage stage)
{
    switch (stage) {
    case BudgetStage::KeepInputs:
        return QObject::tr("Budget 0: only the inputs (and values pinned to the forward) are saved; the "
                           "backward recomputes the rest.");
    case BudgetStage::RuntimeOptimal:
        return QObject::tr(
            "The plain min-cut fits the budget (or there is nothing to trade): the runtime-optimal plan.");
    case BudgetStage::MoreAggressive:
        return QObject::tr("The min-cut without the three fusion heuristics fits the budget.");
    case BudgetStage::Aggressive:
        return QObject::tr("The min-cut with the deny-list instead of the allow-list fits the budget.");
    case BudgetStage::Knapsack:
        return QObject::tr(
            "The knapsack chose which banned nodes to recompute so that the rest fits the budget.");
    }
    return {};
}

QString budgetSummaryHtml(const LoadedGraph& graph, const BudgetOutcome& budget)
{
    const BudgetedPlan& plan = *budget.plan;
    const PlanMetrics& m = plan.metrics;
    QString budgetText = toQString(pythonFloat(plan.budget));
    if (budget.budgetFromNode != kNoNode)
        budgetText += QObject::tr(
            " <span style='color:#9a6b00'>(the graph's meta[\"memory_budget\"], from %1)</span>")
                          .arg(graph.label(budget.budgetFromNode).name.toHtmlEscaped());
    QString rows;
    rows += row(QObject::tr("Budget"), budgetText);
    rows += row(QObject::tr("Decided by"),
        QStringLiteral("<b>%1</b>").arg(budgetStageText(budget).toHtmlEscaped()),
        budgetStageExplanation(plan.stage));
    rows += row(QObject::tr("Memory ratio"),
        m.memoryRatio ? QString::number(*m.memoryRatio, 'f', 4)
                      : QObject::tr("undefined (the runtime-optimal cut saves no more than the inputs, so "
                                    "PyTorch keeps it at every budget above 0)"),
        QObject::tr("PyTorch's mem_ratio: saved activations between the inputs-only plan (0) and the "
                    "runtime-optimal min-cut (1)"));
    // The ratio PyTorch reports is not what its knapsack limits: say so when they disagree.
    constexpr double kTolerance = 1e-6;
    if (m.memoryRatio && *m.memoryRatio > plan.budget + kTolerance) {
        const bool unreachable = plan.stage == BudgetStage::KeepInputs;
        rows += row(QString(),
            QStringLiteral("<span style='color:#9a6b00'>%1</span>")
                .arg(unreachable
                        ? QObject::tr(
                            "Budget %1 cannot be reached: even the inputs and the values that must be saved "
                            "take a ratio of %2.")
                              .arg(budgetText, QString::number(*m.memoryRatio, 'f', 4))
                        : QObject::tr(
                            "The ratio ends above the budget asked for: the knapsack limits the banned "
                            "nodes it keeps, while the ratio counts every saved value after extraction "
                            "(<a href='glossary:memory-ratio'>why</a>).")));
    }
    rows += row(QObject::tr("Activations"),
        QObject::tr("<b>%1</b> kept for the backward").arg(formatBytes(m.activationBytes)),
        QObject::tr("Distinct storages among the saved values, graph inputs excluded"));
    QString runtime = QObject::tr("%1 recomputed").arg(formatRuntime(m.estimatedRuntime, budget.runtimeUnit));
    runtime += QStringLiteral(" (%1%2)").arg(toQString(estimatorName(budget.settings.estimator)),
        budget.device.empty() ? QString() : QObject::tr(" on %1").arg(QString::fromStdString(budget.device)));
    rows += row(QObject::tr("Est. runtime"), runtime,
        QObject::tr("The estimator's cost of everything the backward recomputes"));
    if (plan.memory) {
        const MemoryProfile& p = *plan.memory;
        QString peak = QStringLiteral("<b>%1</b>").arg(formatBytes(p.peakBytes));
        if (p.peakNode != kNoNode)
            peak += QObject::tr(" (%1, at %2)")
                        .arg(p.peakPhase == Phase::Forward ? QObject::tr("forward") : QObject::tr("backward"),
                            graph.label(p.peakNode).name.toHtmlEscaped());
        rows += row(QObject::tr("Simulated peak"), peak,
            QObject::tr("Live bytes at the worst moment of one training step: inputs, saved values, "
                        "gradients and temporaries"));
    }
    return QStringLiteral("<table cellspacing='0' cellpadding='1'>%1</table>").arg(rows);
}

} // namespace remat::ui
