// SPDX-License-Identifier: MIT
#include "panels/pareto_panel.h"

#include "budget/budget_io.h"
#include "document/graph_document.h"
#include "model/atomic_write.h"
#include "model/budget_outcome.h"
#include "model/budget_settings.h"
#include "model/node_text.h"
#include "plots/export_menu.h"
#include "plots/pareto_plot.h"
#include "plots/plot_export.h"

#include <QComboBox>
#include <QDateTime>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QProgressBar>
#include <QPushButton>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

namespace remat::ui {
namespace {

constexpr int kDebounceMs = 150;

/// What a sweep depends on: the graph, the tags in force and the settings other than the budget.
QString sweepKey(const GraphDocument& document)
{
    QString key = QStringLiteral("%1|").arg(reinterpret_cast<quintptr>(document.graph().get()));
    for (const auto& [node, policy] : document.partitionOptions().tags)
        key += QStringLiteral("%1:%2,").arg(node).arg(static_cast<int>(policy));
    const BudgetSettings& s = document.budgetSettings();
    return key
        + QStringLiteral("|%1|%2|%3")
              .arg(static_cast<int>(s.solver))
              .arg(static_cast<int>(s.estimator))
              .arg(s.device)
        + (document.activationOffloading() ? QStringLiteral("|offload") : QString())
        + (document.inductorJointPasses() ? QStringLiteral("|inductor-passes") : QString());
}

} // namespace

ParetoPanel::ParetoPanel(GraphDocument* document, QWidget* parent)
    : QWidget(parent)
    , m_document(document)
    , m_sweeper(new ParetoSweeper(this))
    , m_plot(new ParetoPlot(this))
    , m_series(new QComboBox(this))
    , m_run(new QPushButton(tr("Sweep Budgets"), this))
    , m_progress(new QProgressBar(this))
    , m_status(new QLabel(this))
    , m_export(new QToolButton(this))
    , m_debounce(new QTimer(this))
{
    setObjectName(QStringLiteral("ParetoPanel"));
    m_series->addItem(tr("Activations and peak"), static_cast<int>(ParetoPlot::Series::Both));
    m_series->addItem(tr("Activation bytes"), static_cast<int>(ParetoPlot::Series::Activations));
    m_series->addItem(tr("Simulated peak"), static_cast<int>(ParetoPlot::Series::Peak));
    m_series->setToolTip(
        tr("Activation bytes: what PyTorch's knapsack limits. Simulated peak: what the GPU sees "
           "(forward, then the backward in autograd's order)."));
    m_run->setToolTip(
        tr("Plan every budget from 0 to 1 (a grid, then bisection until every change of plan is found)"));
    m_progress->setMaximumWidth(140);
    m_progress->setTextVisible(false);
    m_progress->hide();
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_export->setText(tr("Export"));
    m_export->setToolTip(tr("Save the plot (PNG, SVG, PDF) or the points (CSV)"));
    m_export->setPopupMode(QToolButton::InstantPopup);
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(kDebounceMs);

    auto* top = new QHBoxLayout;
    top->addWidget(m_series);
    top->addWidget(m_run);
    top->addWidget(m_progress);
    top->addStretch(1);
    top->addWidget(m_export);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    layout->addWidget(m_plot, 1);
    layout->addWidget(m_status);

    auto* exportMenu = new QMenu(m_export);
    connect(exportMenu, &QMenu::aboutToShow, this, &ParetoPanel::showExportMenu);
    m_export->setMenu(exportMenu);

    connect(m_series, &QComboBox::currentIndexChanged, this,
        [this] { m_plot->setSeries(static_cast<ParetoPlot::Series>(m_series->currentData().toInt())); });
    connect(m_run, &QPushButton::clicked, this, [this] {
        if (m_sweeper->isRunning())
            m_sweeper->cancel();
        else
            sweep();
    });
    connect(m_debounce, &QTimer::timeout, this, &ParetoPanel::sweep);
    connect(m_plot, &ParetoPlot::budgetPicked, this, &ParetoPanel::pickBudget);
    connect(m_sweeper, &ParetoSweeper::snapshot, this, &ParetoPanel::onSnapshot);
    connect(m_sweeper, &ParetoSweeper::progress, this, [this](int evaluated, int scheduled, int plans) {
        m_progress->setMaximum(std::max(scheduled, 1));
        m_progress->setValue(evaluated);
        m_status->setText(tr("Sweeping… %1 budgets, %2 plans so far").arg(evaluated).arg(plans));
    });
    connect(m_sweeper, &ParetoSweeper::failed, this,
        [this](const QString& message) { m_status->setText(tr("The sweep failed: %1").arg(message)); });
    connect(m_sweeper, &ParetoSweeper::stopped, this, &ParetoPanel::onStopped);
    connect(m_document, &GraphDocument::graphChanged, this, [this] {
        m_sweeper->cancel();
        m_plot->clear();
        m_sweptKey.clear();
        onSettingsChanged();
    });
    connect(m_document, &GraphDocument::partitionSettingsChanged, this, &ParetoPanel::onSettingsChanged);
    connect(m_document, &GraphDocument::tagsChanged, this, &ParetoPanel::onSettingsChanged);
    connect(m_document, &GraphDocument::partitionChanged, this, &ParetoPanel::updateCurrent);
    onSettingsChanged();
}

void ParetoPanel::onSettingsChanged()
{
    if (!m_document->graph()) {
        m_status->setText(tr("Open a graph to see what each memory budget buys."));
        return;
    }
    updateCurrent();
    const QString key = sweepKey(*m_document);
    if (key == m_sweptKey)
        return; // only the budget moved: the curve stays, the marker follows
    if (m_document->budgetMode()) {
        m_debounce->start();
    } else if (!m_sweeper->isRunning()) {
        if (!m_plot->snapshot())
            m_status->setText(
                tr("Sweep Budgets plans every memory budget from 0 to 1 (PyTorch's "
                   "activation_memory_budget, torch-2.14 rules) and plots what each one costs."));
    }
}

void ParetoPanel::sweep()
{
    const LoadedGraphPtr graph = m_document->graph();
    if (!graph)
        return;
    m_sweptKey = sweepKey(*m_document);
    m_startedMs = QDateTime::currentMSecsSinceEpoch();
    m_firstPointsMs = -1;
    m_plot->clear();
    updateCurrent();
    m_run->setText(tr("Cancel"));
    m_progress->setValue(0);
    m_progress->show();
    m_status->setText(tr("Preparing the budget session…"));
    m_plot->setTitle(tr("%1 — every memory budget from 0 to 1 (%2, torch-2.14 rules)")
                         .arg(graph->displayName, budgetMethodText(m_document->budgetSettings())));
    m_sweeper->start(graph, m_document->partitionOptions(), m_document->budgetSettings());
}

void ParetoPanel::onSnapshot(const ParetoSnapshotPtr& snapshot)
{
    if (m_firstPointsMs < 0)
        m_firstPointsMs = static_cast<double>(QDateTime::currentMSecsSinceEpoch() - m_startedMs);
    m_plot->setSnapshot(snapshot);
    updateCurrent();
    if (snapshot->finished)
        m_status->setText(statusText());
}

void ParetoPanel::onStopped(bool cancelled)
{
    m_run->setText(tr("Sweep Budgets"));
    m_progress->hide();
    if (cancelled) {
        const ParetoSnapshotPtr latest = m_sweeper->latest();
        m_status->setText(tr("Sweep cancelled: %1 plans found before it stopped")
                              .arg(latest ? latest->result.points.size() : 0));
        m_sweptKey.clear(); // the next change sweeps again
    }
}

QString ParetoPanel::statusText() const
{
    const ParetoSnapshotPtr s = m_plot->snapshot();
    if (!s)
        return m_status->text();
    const ParetoResult& r = s->result;
    const int frontier = static_cast<int>(
        std::count_if(r.points.begin(), r.points.end(), [](const ParetoPoint& p) { return p.onFrontier; }));
    // Milliseconds below a second: a small graph's sweep said "in 0.00 s".
    const double seconds = r.seconds + s->sessionSeconds;
    const QString took = seconds < 1 ? tr("%1 ms").arg(seconds * 1e3, 0, 'f', seconds < 0.01 ? 1 : 0)
                                     : tr("%1 s").arg(seconds, 0, 'f', 2);
    QString text = tr("%1 plans from %2 budgets (%3 on the frontier), computed in %4; first points on screen "
                      "after %5 ms.")
                       .arg(r.points.size())
                       .arg(r.budgetsEvaluated)
                       .arg(frontier)
                       .arg(took)
                       .arg(m_firstPointsMs, 0, 'f', 0);
    if (const int low = m_plot->lowestPeakPoint(); low >= 0) {
        const ParetoPoint& p = r.points[static_cast<std::size_t>(low)];
        const ParetoPoint& last = r.points.back();
        text += tr(" Lowest simulated peak: %1 at %2")
                    .arg(formatBytes(*p.metrics.peakBytes), budgetsOfPlan(p));
        if (last.metrics.peakBytes && *last.metrics.peakBytes > *p.metrics.peakBytes)
            text += tr(" (budget 1 peaks at %1: a larger budget is not always a lower peak)")
                        .arg(formatBytes(*last.metrics.peakBytes));
        text += QLatin1Char('.');
    }
    // PyTorch's own plans at the budgets the file records: the crosses, and whether ours agree.
    if (!s->recorded.empty()) {
        const auto differ = std::count_if(s->recorded.begin(), s->recorded.end(),
            [](const ParetoSnapshot::Recorded& p) { return !p.sameAsOurs; });
        text += differ == 0
            ? tr(" PyTorch's %1 recorded plans (crosses) save what ours save at their budgets.")
                  .arg(s->recorded.size())
            : tr(" %1 of PyTorch's %2 recorded plans (crosses) save other values than ours.")
                  .arg(differ)
                  .arg(s->recorded.size());
    }
    if (!s->recordedLeftOut.isEmpty())
        text += tr(" Left off the plot: %1").arg(s->recordedLeftOut.join(QStringLiteral("; ")));
    return text;
}

void ParetoPanel::pickBudget(double budget)
{
    if (!m_document->graph())
        return;
    if (!m_document->budgetMode())
        m_document->setPartitionSettings(
            PartitionerKind::MinCut, m_document->rules(), m_document->compiler(), true);
    BudgetSettings settings = m_document->budgetSettings();
    settings.budget = budget;
    m_document->setBudgetSettings(settings);
}

void ParetoPanel::updateCurrent()
{
    const PartitionOutcomePtr outcome = m_document->outcome();
    if (m_document->budgetMode() && outcome && outcome->budget)
        m_plot->setCurrentBudget(outcome->budget->plan->budget);
    else if (m_document->budgetMode())
        m_plot->setCurrentBudget(m_document->budgetSettings().budget);
    else
        m_plot->setCurrentBudget(std::nullopt);
}

QString ParetoPanel::exportTo(const QString& path)
{
    const ParetoSnapshotPtr snapshot = m_plot->snapshot();
    if (!snapshot)
        return tr("Nothing to export yet: sweep the budgets first");
    if (QFileInfo(path).suffix().compare(QLatin1String("csv"), Qt::CaseInsensitive) == 0)
        return writeFileAtomic(path, QByteArray::fromStdString(paretoToCsv(snapshot->result)));
    return savePlot(m_plot->plot(), path);
}

void ParetoPanel::showExportMenu()
{
    const LoadedGraphPtr graph = m_document->graph();
    const QString base
        = (graph ? exportBaseName(*graph) : QStringLiteral("graph")) + QStringLiteral("_pareto");
    fillExportMenu(
        m_export->menu(), this, base, m_plot->snapshot() != nullptr,
        [this](const QString& path) { return exportTo(path); },
        [this](const QString& message) { Q_EMIT exported(message); });
}

} // namespace remat::ui
