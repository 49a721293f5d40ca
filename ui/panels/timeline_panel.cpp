// SPDX-License-Identifier: MIT
#include "panels/timeline_panel.h"

#include "panels/live_tensor_model.h"

#include "budget/budget_io.h"
#include "document/graph_document.h"
#include "document/node_selection.h"
#include "model/atomic_write.h"
#include "model/node_text.h"
#include "plots/export_menu.h"
#include "plots/plot_export.h"
#include "plots/timeline_plot.h"

#include <QFileInfo>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QSplitter>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

namespace remat::ui {
TimelinePanel::TimelinePanel(GraphDocument* document, NodeSelection* selection, QWidget* parent)
    : QWidget(parent)
    , m_document(document)
    , m_selection(selection)
    , m_profiler(new PlanProfiler(this))
    , m_plot(new TimelinePlot(this))
    , m_summary(new QLabel(this))
    , m_liveTensors(new LiveTensorModel(this))
    , m_live(new QTreeView(this))
    , m_export(new QToolButton(this))
{
    setObjectName(QStringLiteral("TimelinePanel"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_live->setModel(m_liveTensors);
    m_live->setRootIsDecorated(false);
    m_live->setUniformRowHeights(true); // rows are not measured one by one: 45k rows list at once
    m_live->setSortingEnabled(true);
    m_live->sortByColumn(LiveTensorModel::BytesColumn, Qt::DescendingOrder);
    m_live->setSelectionMode(QAbstractItemView::ExtendedSelection);
    // The name takes what the sizes and categories leave, measured once rather than over 45k rows.
    QHeaderView* header = m_live->header();
    header->setStretchLastSection(false);
    header->setSectionResizeMode(LiveTensorModel::NameColumn, QHeaderView::Stretch);
    const QFontMetrics metrics(m_live->font());
    const int padding = metrics.horizontalAdvance(QStringLiteral("MM"));
    header->resizeSection(
        LiveTensorModel::BytesColumn, metrics.horizontalAdvance(formatBytes(999 << 20)) + padding);
    header->resizeSection(
        LiveTensorModel::CategoryColumn, metrics.horizontalAdvance(QStringLiteral("temporaries")) + padding);
    m_live->setToolTip(tr(
        "The tensors alive at the peak, or at the clicked step (selected on the canvas too), largest first"));
    m_export->setText(tr("Export"));
    m_export->setPopupMode(QToolButton::InstantPopup);
    m_export->setMenu(new QMenu(m_export));

    auto* top = new QHBoxLayout;
    top->addWidget(m_summary, 1);
    top->addWidget(m_export, 0, Qt::AlignTop);
    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(m_plot);
    splitter->addWidget(m_live);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({700, 260}); // the plot first; the list is a side note
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    layout->addWidget(splitter, 1);

    connect(m_export->menu(), &QMenu::aboutToShow, this, [this] {
        const LoadedGraphPtr graph = m_document->graph();
        const QString base
            = (graph ? exportBaseName(*graph) : QStringLiteral("graph")) + QStringLiteral("_memory");
        fillExportMenu(
            m_export->menu(), this, base, m_plot->profile() != nullptr,
            [this](const QString& path) { return exportTo(path); },
            [this](const QString& message) { Q_EMIT exported(message); });
    });
    connect(m_plot, &TimelinePlot::stepClicked, this, &TimelinePanel::showStep);
    connect(m_profiler, &PlanProfiler::profiled, this, &TimelinePanel::onProfiled);
    connect(m_profiler, &PlanProfiler::liveAt, this, &TimelinePanel::onLiveAt);
    connect(m_document, &GraphDocument::partitionChanged, this, &TimelinePanel::onPartitionChanged);
    connect(m_document, &GraphDocument::graphChanged, this, [this] {
        m_profiler->clear();
        m_plot->clear();
        m_liveTensors->clear();
        m_listedStep = -1;
    });
    connect(m_live->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
        std::vector<NodeId> nodes;
        for (const QModelIndex& index : m_live->selectionModel()->selectedRows())
            nodes.push_back(m_liveTensors->nodeAt(index.row()));
        if (!nodes.empty())
            m_selection->select(nodes, {}, NodeSelection::Origin::Table);
    });
    m_summary->setText(tr("The memory timeline of the current plan appears here once it is partitioned."));
}

void TimelinePanel::onPartitionChanged()
{
    const PartitionOutcomePtr outcome = m_document->outcome();
    if (!outcome || !outcome->ok()) {
        m_summary->setText(outcome ? tr("No plan: %1").arg(outcome->error) : QString());
        return;
    }
    m_summary->setText(tr("Simulating the plan's memory…"));
    m_profiler->profile(m_document->graph(), outcome, 0, tr("current plan"));
}

void TimelinePanel::setComparison(PartitionOutcomePtr outcome, const QString& label)
{
    if (!outcome) {
        m_profiler->profile(nullptr, nullptr, 1, QString()); // drops any profile in flight
        m_plot->setComparison(nullptr);
        return;
    }
    m_profiler->profile(m_document->graph(), std::move(outcome), 1, label);
}

void TimelinePanel::onProfiled(int slot, const PlanProfilePtr& profile)
{
    if (slot == 1) {
        m_plot->setComparison(profile);
        return;
    }
    m_liveTensors->clear(); // a new plan: what was alive under the old one no longer is
    m_listedStep = -1;
    if (!profile->ok()) {
        m_plot->clear();
        m_summary->setText(tr("The timeline cannot be simulated: %1").arg(profile->error));
        return;
    }
    const LoadedGraphPtr graph = m_document->graph();
    if (!graph)
        return;
    m_plot->setProfile(std::shared_ptr<const JointGraph>(graph, &graph->graph), profile);
    m_plot->setTitle(tr("%1 — memory of the %2, step by step").arg(graph->displayName, profile->label));
    const MemoryProfile& p = profile->profile;
    const QString peakNode = p.peakNode != kNoNode ? graph->label(p.peakNode).name : QString();
    m_summary->setText(
        tr("<b>Peak %1</b> at step %2 (%3, %4). %5 forward and %6 backward steps. %7 "
           "The list shows what is alive at the peak; click a step for another.")
            .arg(formatBytes(p.peakBytes))
            .arg(p.peakStep)
            .arg(p.peakPhase == Phase::Forward ? tr("forward") : tr("backward"), peakNode.toHtmlEscaped())
            .arg(p.forwardSteps)
            .arg(static_cast<int>(p.timeline.size()) - p.forwardSteps)
            .arg(profile->note.toHtmlEscaped()));
    // What is alive at the peak is the first question; the canvas keeps the user's selection.
    m_listedStep = p.peakStep;
    m_listedIsPeak = true;
    m_profiler->requestLiveAt(p.peakStep);
}

void TimelinePanel::showStep(int step)
{
    m_plot->setSelectedStep(step);
    m_listedStep = step;
    m_listedIsPeak = false;
    m_profiler->requestLiveAt(step);
}

void TimelinePanel::onLiveAt(int step, const std::vector<LiveTensor>& tensors)
{
    const LoadedGraphPtr graph = m_document->graph();
    if (!graph || step != m_listedStep)
        return;
    const QString title = m_listedIsPeak ? tr("%1 live at the peak").arg(tensors.size())
                                         : tr("%1 live at step %2").arg(tensors.size()).arg(step);
    m_liveTensors->setTensors(graph, tensors, title);
    if (m_listedIsPeak)
        return;
    std::vector<NodeId> nodes;
    nodes.reserve(tensors.size());
    for (const LiveTensor& t : tensors)
        nodes.push_back(t.owner);
    m_selection->select(nodes, {}, NodeSelection::Origin::Program);
}

QString TimelinePanel::exportTo(const QString& path)
{
    const PlanProfilePtr profile = m_plot->profile();
    const LoadedGraphPtr graph = m_document->graph();
    if (!profile || !graph)
        return tr("Nothing to export yet: the plan has no timeline");
    if (QFileInfo(path).suffix().compare(QLatin1String("csv"), Qt::CaseInsensitive) == 0)
        return writeFileAtomic(
            path, QByteArray::fromStdString(memoryTimelineToCsv(graph->graph, profile->profile)));
    return savePlot(m_plot->plot(), path);
}

} // namespace remat::ui
