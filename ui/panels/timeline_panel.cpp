// SPDX-License-Identifier: MIT
#include "panels/timeline_panel.h"

#include "panels/value_sorted_item.h"

#include "budget/budget_io.h"
#include "document/graph_document.h"
#include "document/node_selection.h"
#include "model/atomic_write.h"
#include "model/node_text.h"
#include "plots/export_menu.h"
#include "plots/plot_export.h"
#include "plots/timeline_plot.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QSplitter>
#include <QToolButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace remat::ui {
namespace {

QString categoryText(MemoryCategory category)
{
    const std::string_view name = categoryName(category);
    return QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size()));
}

} // namespace

TimelinePanel::TimelinePanel(GraphDocument* document, NodeSelection* selection, QWidget* parent)
    : QWidget(parent)
    , m_document(document)
    , m_selection(selection)
    , m_profiler(new PlanProfiler(this))
    , m_plot(new TimelinePlot(this))
    , m_summary(new QLabel(this))
    , m_live(new QTreeWidget(this))
    , m_export(new QToolButton(this))
{
    setObjectName(QStringLiteral("TimelinePanel"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_live->setHeaderLabels({tr("live tensor"), tr("bytes"), tr("category")});
    m_live->setRootIsDecorated(false);
    m_live->setSortingEnabled(true);
    m_live->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_live->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_live->setToolTip(
        tr("The tensors alive at the clicked step, largest first; they are selected on the canvas"));
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
        m_live->clear();
    });
    connect(m_live, &QTreeWidget::itemSelectionChanged, this, [this] {
        std::vector<NodeId> nodes;
        for (QTreeWidgetItem* item : m_live->selectedItems())
            nodes.push_back(static_cast<NodeId>(item->data(0, Qt::UserRole).toInt()));
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
    m_live->clear(); // a new plan: what was alive under the old one no longer is
    m_live->setHeaderLabels({tr("live tensor"), tr("bytes"), tr("category")});
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
           "Click a step to list what is alive there.")
            .arg(formatBytes(p.peakBytes))
            .arg(p.peakStep)
            .arg(p.peakPhase == Phase::Forward ? tr("forward") : tr("backward"), peakNode.toHtmlEscaped())
            .arg(p.forwardSteps)
            .arg(static_cast<int>(p.timeline.size()) - p.forwardSteps)
            .arg(profile->note.toHtmlEscaped()));
}

void TimelinePanel::showStep(int step)
{
    m_plot->setSelectedStep(step);
    m_profiler->requestLiveAt(step);
}

void TimelinePanel::onLiveAt(int step, const std::vector<LiveTensor>& tensors)
{
    const LoadedGraphPtr graph = m_document->graph();
    if (!graph)
        return;
    m_live->setSortingEnabled(false);
    m_live->clear();
    std::vector<NodeId> nodes;
    for (const LiveTensor& t : tensors) {
        auto* item = new ValueSortedItem(m_live, 1);
        item->setText(0, graph->label(t.owner).name);
        item->setToolTip(0, graph->label(t.owner).op); // an input's name in the model, else its op
        item->setData(0, Qt::UserRole, t.owner);
        item->setText(1, formatBytes(t.bytes));
        item->setData(1, Qt::UserRole, static_cast<qlonglong>(t.bytes));
        item->setTextAlignment(1, Qt::AlignRight | Qt::AlignVCenter);
        item->setText(2, categoryText(t.category));
        nodes.push_back(t.owner);
    }
    m_live->setSortingEnabled(true);
    m_live->sortByColumn(1, Qt::DescendingOrder);
    m_live->setHeaderLabels(
        {tr("%1 live at step %2").arg(tensors.size()).arg(step), tr("bytes"), tr("category")});
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
