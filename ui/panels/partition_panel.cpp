// SPDX-License-Identifier: MIT
#include "panels/partition_panel.h"

#include "window/guide_window.h"

#include "document/graph_document.h"
#include "document/node_selection.h"
#include "explain/recorded_comparison.h"
#include "explain/recorded_plan.h"
#include "model/budget_text.h"
#include "model/decision_text.h"
#include "model/node_text.h"
#include "model/qt_strings.h"
#include "panels/budget_controls.h"
#include "panels/decision_filter_proxy.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QTabWidget>
#include <QTimer>
#include <QTreeView>
#include <QVBoxLayout>

namespace remat::ui {
namespace {

// The partitioner combo's data: the core's names, plus the app's memory-budget partitioner.
const QLatin1String kBudget("budget");

QString kindName(PartitionerKind kind)
{
    return toQString(partitionerName(kind));
}

/// A link that applies what the reference note advises (PartitionPanel::applyRemedy), or "".
QString remedyLink(ProvenanceRemedy remedy, PartitionerKind partitioner)
{
    switch (remedy) {
    case ProvenanceRemedy::None:
        return {};
    case ProvenanceRemedy::OtherPartitioner:
        return QStringLiteral(" <a href=\"remedy:partitioner\">%1</a>")
            .arg(partitioner == PartitionerKind::MinCut ? PartitionPanel::tr("Use the default partitioner")
                                                        : PartitionPanel::tr("Use min-cut"));
    case ProvenanceRemedy::ReplayInductorPasses:
        return QStringLiteral(" <a href=\"remedy:inductor-passes\">%1</a>")
            .arg(PartitionPanel::tr("Replay Inductor's passes"));
    }
    return {};
}

} // namespace

PartitionPanel::PartitionPanel(GraphDocument* document, NodeSelection* selection, QWidget* parent)
    : QWidget(parent)
    , m_document(document)
    , m_selection(selection)
    , m_partitioner(new QComboBox(this))
    , m_rules(new QComboBox(this))
    , m_compiler(new QComboBox(this))
    , m_budget(new BudgetControls(this))
    , m_budgetNote(new QLabel(this))
    , m_summary(new QLabel(this))
    , m_reference(new QLabel(this))
    , m_status(new QLabel(this))
    , m_filter(new QLineEdit(this))
    , m_differencesOnly(new QCheckBox(tr("Only where we differ from PyTorch"), this))
    , m_offload(new QCheckBox(tr("CPU offload"), this))
    , m_inductorPasses(new QCheckBox(tr("Inductor's passes"), this))
    , m_tabs(new QTabWidget(this))
    , m_refreshTimer(new QTimer(this))
{
    // Tables of thousands of rows are rebuilt after the canvas has repainted, not before.
    m_refreshTimer->setSingleShot(true);
    m_refreshTimer->setInterval(0);
    connect(m_refreshTimer, &QTimer::timeout, this, &PartitionPanel::onPartitionChanged);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    auto* form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    // The combo data are the core's own names; the memory budget is the app's own entry.
    m_partitioner->addItem(
        tr("min-cut (min_cut_rematerialization_partition)"), kindName(PartitionerKind::MinCut));
    m_partitioner->addItem(tr("default (default_partition)"), kindName(PartitionerKind::Default));
    m_partitioner->addItem(tr("memory budget (choose_saved_values_set)"), kBudget);
    m_partitioner->setItemData(2,
        tr("The newest min-cut under an activation memory budget: PyTorch's knapsack over what to recompute"),
        Qt::ToolTipRole);
    m_rules->addItem(tr("torch 1.13"), static_cast<int>(RuleSet::Torch113));
    m_rules->addItem(tr("torch 2.14 (newest)"), static_cast<int>(RuleSet::Torch214));
    m_compiler->addItem(tr("nvfuser"), static_cast<int>(OpListCompiler::Nvfuser));
    m_compiler->addItem(tr("inductor"), static_cast<int>(OpListCompiler::Inductor));
    m_partitioner->setToolTip(tr("Which PyTorch partitioner to run"));
    m_compiler->setToolTip(tr("torch 1.13's min-cut picks its recomputable-op list by compiler"));
    form->addRow(tr("Partitioner:"), m_partitioner);
    form->addRow(tr("Rules:"), m_rules);
    form->addRow(tr("Op lists:"), m_compiler);
    m_offload->setToolTip(
        tr("torch 2.x's activation-offloading pass (enable_activation_offloading, off by default): saved "
           "values tagged MUST_CPU_OFFLOAD or PREFER_CPU_OFFLOAD wait on the host between forward and "
           "backward"));
    m_inductorPasses->setToolTip(
        tr("Replay Inductor's joint-graph passes: torch.compile's default backend removes no-ops "
           "(remove_noop_ops) and pointless views and permutes from the joint graph before partitioning "
           "it. On by default when the file's decision came after them (a TORCH_TRACE log of Inductor); "
           "torch 2.x rules only"));
    // torch 2.x only, both: one row, so that the panel keeps its height.
    auto* torch2Row = new QHBoxLayout;
    torch2Row->addWidget(m_offload);
    torch2Row->addWidget(m_inductorPasses);
    torch2Row->addStretch(1);
    form->addRow(tr("Torch 2.x:"), torch2Row);
    layout->addLayout(form);
    m_budgetNote->setText(
        tr("The memory budget exists only in the newest PyTorch: its rules are used, whatever Rules says."));
    m_budgetNote->setWordWrap(true);
    m_budgetNote->setStyleSheet(QStringLiteral("color: #555"));
    layout->addWidget(m_budget);
    layout->addWidget(m_budgetNote);

    // Glossary links ("glossary:memory-ratio") open the guide at that entry.
    connect(m_summary, &QLabel::linkActivated, this, [this](const QString& link) {
        if (link.startsWith(QLatin1String("glossary:")))
            showGuideTopic(this, link.mid(9));
    });
    for (QLabel* label : {m_summary, m_reference, m_status}) {
        // Always rich: their texts escape file and node names, and a text with no tag would
        // otherwise show its entities ("&quot;") as they are.
        label->setTextFormat(Qt::RichText);
        label->setWordWrap(true);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
        layout->addWidget(label);
    }
    m_summary->setTextInteractionFlags(Qt::TextBrowserInteraction);
    m_reference->setTextInteractionFlags(Qt::TextBrowserInteraction);
    connect(m_reference, &QLabel::linkActivated, this, &PartitionPanel::applyRemedy);
    m_status->setStyleSheet(QStringLiteral("color: #555"));
    m_status->setObjectName(QStringLiteral("partitionStatus"));

    auto* filterRow = new QHBoxLayout;
    m_filter->setPlaceholderText(tr("Filter by node or op"));
    m_filter->setClearButtonEnabled(true);
    filterRow->addWidget(m_filter, 1);
    layout->addLayout(filterRow);
    layout->addWidget(m_differencesOnly);

    const DecisionTableModel::List lists[] = {DecisionTableModel::List::Saved,
        DecisionTableModel::List::Recomputed, DecisionTableModel::List::Banned};
    for (int i = 0; i < 3; ++i) {
        m_models[i] = new DecisionTableModel(lists[i], this);
        m_proxies[i] = new DecisionFilterProxy(this);
        m_proxies[i]->setSourceModel(m_models[i]);
        auto* view = new QTreeView(this);
        view->setRootIsDecorated(false);
        view->setUniformRowHeights(true); // fast with thousands of rows
        view->setAlternatingRowColors(true);
        view->setSortingEnabled(true);
        view->setSelectionMode(QAbstractItemView::ExtendedSelection);
        view->setModel(m_proxies[i]);
        view->sortByColumn(DecisionTableModel::SizeColumn, Qt::DescendingOrder);
        view->header()->setStretchLastSection(true);
        view->header()->resizeSection(DecisionTableModel::NameColumn, 118);
        view->header()->resizeSection(DecisionTableModel::SizeColumn, 74);
        view->header()->resizeSection(DecisionTableModel::OpColumn, 110);
        view->header()->resizeSection(DecisionTableModel::ValueColumn, 130);
        view->header()->resizeSection(DecisionTableModel::DistanceColumn, 50);
        view->header()->resizeSection(DecisionTableModel::TagColumn, 90);
        connect(view->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this, i, view] {
            if (m_updatingControls)
                return;
            std::vector<NodeId> nodes;
            for (const QModelIndex& index : view->selectionModel()->selectedRows())
                nodes.push_back(index.data(DecisionTableModel::NodeRole).toInt());
            if (const QModelIndex current = view->currentIndex(); current.isValid()) {
                const NodeId n = current.data(DecisionTableModel::NodeRole).toInt();
                const auto it = std::find(nodes.begin(), nodes.end(), n);
                if (it != nodes.end())
                    std::rotate(nodes.begin(), it, it + 1); // the clicked one is shown in the inspector
            }
            m_selection->select(std::move(nodes), {}, NodeSelection::Origin::Table);
            Q_UNUSED(i);
        });
        m_views[i] = view;
    }
    m_tabs->addTab(m_views[0], tr("Saved"));
    m_tabs->addTab(m_views[1], tr("Recomputed"));
    m_tabs->addTab(m_views[2], tr("Banned"));
    layout->addWidget(m_tabs, 1);

    connect(m_filter, &QLineEdit::textChanged, this, [this](const QString& text) {
        for (auto* proxy : m_proxies)
            proxy->setText(text.trimmed());
    });
    connect(m_differencesOnly, &QCheckBox::toggled, this, [this](bool on) {
        m_proxies[0]->setDifferencesOnly(on);
        if (on)
            m_tabs->setCurrentIndex(0);
    });
    for (QComboBox* combo : {m_partitioner, m_rules, m_compiler})
        connect(combo, &QComboBox::currentIndexChanged, this, &PartitionPanel::applySettingsFromControls);
    connect(m_budget, &BudgetControls::edited, m_document, &GraphDocument::setBudgetSettings);
    connect(m_offload, &QCheckBox::toggled, m_document, &GraphDocument::setActivationOffloading);
    connect(m_inductorPasses, &QCheckBox::toggled, m_document, &GraphDocument::setInductorJointPasses);

    connect(m_document, &GraphDocument::graphChanged, this, &PartitionPanel::onGraphChanged);
    connect(m_document, &GraphDocument::partitionSettingsChanged, this, &PartitionPanel::onSettingsChanged);
    connect(m_document, &GraphDocument::partitionRequested, this, &PartitionPanel::onPartitionRequested);
    connect(m_document, &GraphDocument::partitionChanged, m_refreshTimer, qOverload<>(&QTimer::start));
    connect(m_document, &GraphDocument::tagsChanged, this, [this] {
        for (auto* model : m_models)
            model->refreshTags();
    });
    connect(m_selection, &NodeSelection::changed, this,
        [this](NodeSelection::Origin o) { onSelectionChanged(static_cast<int>(o)); });
    onGraphChanged();
}

QString PartitionPanel::summaryText() const
{
    return m_summary->text();
}

void PartitionPanel::onGraphChanged()
{
    onSettingsChanged();
    for (auto* model : m_models)
        model->setData(m_document->graph(), nullptr, {});
    m_summary->setText(m_document->graph() ? QString() : tr("Open a graph to partition it."));
    m_reference->clear();
    m_budget->setBudgetOverridden(QString());
    if (m_document->graph() && m_document->graph()->graph.kind() == GraphKind::Forward)
        m_status->setText(tr("A forward-only graph: there is no backward to partition."));
}

void PartitionPanel::onSettingsChanged()
{
    m_updatingControls = true;
    const QString partitioner
        = m_document->budgetMode() ? QString(kBudget) : kindName(m_document->partitioner());
    m_partitioner->setCurrentIndex(m_partitioner->findData(partitioner));
    // The budget forces the newest rules; the user's own choice comes back with another partitioner.
    const RuleSet rules = m_document->budgetMode() ? RuleSet::Newest : m_document->rules();
    m_rules->setCurrentIndex(m_rules->findData(static_cast<int>(rules)));
    m_compiler->setCurrentIndex(m_compiler->findData(static_cast<int>(m_document->compiler())));
    m_budget->setSettings(m_document->budgetSettings());
    m_offload->setChecked(m_document->activationOffloading());
    m_inductorPasses->setChecked(m_document->inductorJointPasses());
    m_updatingControls = false;
    updateBudgetMode();
}

bool PartitionPanel::budgetChosen() const
{
    return m_partitioner->currentData().toString() == kBudget;
}

void PartitionPanel::applySettingsFromControls()
{
    if (m_updatingControls)
        return;
    const bool budget = budgetChosen();
    const auto kind = budget
        ? m_document->partitioner()
        : parsePartitioner(m_partitioner->currentData().toString().toStdString()).value();
    // While the budget is shown the rules combo is forced to newest: keep the user's own choice.
    const RuleSet rules = m_document->budgetMode() ? m_document->rules()
                                                   : static_cast<RuleSet>(m_rules->currentData().toInt());
    m_document->setPartitionSettings(
        kind, rules, static_cast<OpListCompiler>(m_compiler->currentData().toInt()), budget);
    onSettingsChanged(); // the rules combo shows what is in force
}

void PartitionPanel::updateCompilerEnabled()
{
    m_compiler->setEnabled(m_partitioner->currentData().toString() == kindName(PartitionerKind::MinCut)
        && m_rules->currentData().toInt() == static_cast<int>(RuleSet::Torch113));
    const bool newest
        = m_rules->currentData().toInt() != static_cast<int>(RuleSet::Torch113) || budgetChosen();
    m_offload->setEnabled(newest);
    m_inductorPasses->setEnabled(newest);
}

void PartitionPanel::updateBudgetMode()
{
    const bool budget = budgetChosen();
    m_budget->setVisible(budget);
    m_budgetNote->setVisible(budget);
    m_rules->setEnabled(!budget);
    m_rules->setToolTip(budget
            ? tr("The memory budget runs the newest PyTorch's min-cut: the rules are forced to newest")
            : tr("Whose rules: Debian's torch 1.13.1, or torch 2.14.1 (the newest proven)"));
    updateCompilerEnabled();
}

void PartitionPanel::applyRemedy(const QString& link)
{
    if (link == QLatin1String("remedy:inductor-passes")) {
        m_document->setInductorJointPasses(true);
    } else if (link == QLatin1String("remedy:partitioner")) {
        const PartitionerKind other = m_document->partitioner() == PartitionerKind::MinCut
            ? PartitionerKind::Default
            : PartitionerKind::MinCut;
        m_document->setPartitionSettings(other, m_document->rules(), m_document->compiler(), false);
    }
}

void PartitionPanel::onPartitionRequested()
{
    m_status->setText(tr("Partitioning…"));
}

void PartitionPanel::onPartitionChanged()
{
    const PartitionOutcomePtr outcome = m_document->outcome();
    const LoadedGraphPtr graph = m_document->graph();
    if (!outcome || !graph)
        return;
    m_updatingControls = true;
    for (auto* model : m_models)
        model->setData(graph, outcome, [doc = m_document](NodeId n) { return doc->tagInForce(n); });
    m_updatingControls = false;
    if (!outcome->ok()) {
        m_summary->setText(tr("<span style='color:#b00'><b>The partitioner failed:</b> %1</span>")
                               .arg(outcome->error.toHtmlEscaped()));
        m_reference->clear();
        m_status->clear();
        // The tables are empty: no count of the plan before.
        m_tabs->setTabText(0, tr("Saved"));
        m_tabs->setTabText(1, tr("Recomputed"));
        m_tabs->setTabText(2, tr("Banned"));
        return;
    }
    const PartitionResult& r = *outcome->result;
    QString summary
        = tr("<b>%1</b> saved · <b>%2</b>%5 &nbsp;|&nbsp; <b>%3</b> recomputed &nbsp;|&nbsp; %4 banned")
              .arg(r.savedValues.size())
              .arg(formatBytes(r.savedBytes))
              .arg(r.recomputed.size())
              .arg(r.banned.size())
              .arg(symIntsText(r.savedSymNodes.size()) + rngStatesText(outcome->rngStateOps.size()));
    if (r.cutValue)
        summary += tr(" &nbsp;|&nbsp; cut %1").arg(*r.cutValue);
    if (r.options.config.activationOffloading) {
        // Which saved values the offloading pass sends to the host, and the tags it refused and why.
        QStringList refused;
        for (const auto& x : r.offloadRefused)
            refused << QStringLiteral("%1: %2").arg(
                graph->label(x.node).name, QString::fromStdString(x.reason));
        summary += tr("<br><span style='color:#00838f' title=\"%4\"><b>%1</b> offloaded to the host · "
                      "<b>%2</b>, %3 offload "
                      "tags refused</span>")
                       .arg(r.offloaded.size())
                       .arg(formatBytes(r.offloadedBytes))
                       .arg(r.offloadRefused.size())
                       .arg(refused.join(QLatin1Char('\n')).toHtmlEscaped());
    }
    if (outcome->budget)
        summary += budgetSummaryHtml(*graph, *outcome->budget);
    m_summary->setText(summary);
    m_budget->setBudgetOverridden(outcome->budget && outcome->budget->budgetFromNode != kNoNode
            ? tr("This graph sets its own budget (meta[\"memory_budget\"] of %1), which PyTorch "
                 "uses instead of the configured one.")
                  .arg(graph->label(outcome->budget->budgetFromNode).name)
            : QString());
    m_tabs->setTabText(0, tr("Saved (%1)").arg(r.savedValues.size() + r.savedSymNodes.size()));
    m_tabs->setTabText(1, tr("Recomputed (%1)").arg(r.recomputed.size()));
    m_tabs->setTabText(2, tr("Banned (%1)").arg(r.banned.size()));

    if (outcome->referenceKey.isEmpty()) {
        // Why there is none, without the file's path: "PyTorch's recorded decisions were made without tags…".
        const std::optional<double> budget
            = outcome->budget ? std::optional<double>(outcome->budget->plan->budget) : std::nullopt;
        const std::string variant = outcome->budget
            ? budgetRecordVariant(budgetOptionsFor(outcome->budget->settings))
            : std::string();
        std::string why = missingRecordedPlanMessage(graph->graph, outcome->options, budget, variant);
        if (why.starts_with(graph->graph.filePath() + ": "))
            why.erase(0, graph->graph.filePath().size() + 2);
        m_reference->setText(
            tr("No PyTorch decision to compare with: %1.").arg(QString::fromStdString(why).toHtmlEscaped()));
        m_differencesOnly->setEnabled(false);
    } else {
        m_differencesOnly->setEnabled(true);
        const RecordedPartition* ref = graph->graph.recordedPartition(outcome->referenceKey.toStdString());
        // A log's decision of an unnamed partitioner is not called min_cut under the default one.
        const QString who = ref->partitionerNamed || outcome->options.partitioner == PartitionerKind::MinCut
            ? tr("PyTorch %1 <code>%2</code>")
                  .arg(QString::fromStdString(graph->graph.recordedTorchVersion()), outcome->referenceKey)
            : tr("PyTorch %1 (the log's decision)")
                  .arg(QString::fromStdString(graph->graph.recordedTorchVersion()));
        const QString theirs
            = tr("%1 saved · %2%3")
                  .arg(ref->savedValues.size())
                  .arg(formatBytes(outcome->referenceSavedBytes))
                  .arg(symIntsText(ref->savedSymNodes.size()) + rngStatesText(outcome->referenceRngStates));
        const bool sameRngStates = outcome->rngStateOps.size() == outcome->referenceRngStates;
        if (outcome->onlyOurs.empty() && outcome->onlyReference.empty()
            && outcome->unknownReferenceNames.empty() && sameRngStates) {
            m_reference->setText(
                tr("%1: %2 — <span style='color:#1a7f37'><b>same saved set</b></span>").arg(who, theirs));
        } else {
            QString unknown;
            if (!outcome->unknownReferenceNames.empty())
                unknown
                    = tr(", %n recorded name(s) not in the graph (%1)", nullptr,
                        static_cast<int>(outcome->unknownReferenceNames.size()))
                          .arg(
                              QString::fromStdString(outcome->unknownReferenceNames.front()).toHtmlEscaped());
            if (!sameRngStates)
                unknown += tr(", RNG states: %1 ours, %2 PyTorch's")
                               .arg(outcome->rngStateOps.size())
                               .arg(outcome->referenceRngStates);
            // What explains the difference, when known, rather than what might.
            const ProvenanceNote& provenance = outcome->referenceNote;
            std::string note = provenance.text;
            if (const std::string replaced
                = replacedSymbolNote(graph->graph, outcome->onlyOurs, outcome->onlyReference);
                !replaced.empty())
                note += (note.empty() ? "" : ". ") + replaced;
            m_reference->setText(
                tr("%1: %2 — <span style='color:#9a6b00'><b>differs</b>: %3 only ours, %4 "
                   "only PyTorch's%5</span>%6")
                    .arg(who, theirs)
                    .arg(outcome->onlyOurs.size())
                    .arg(outcome->onlyReference.size())
                    .arg(unknown,
                        (note.empty() ? QString()
                                      : QStringLiteral("<br>") + QString::fromStdString(note).toHtmlEscaped()
                                    + QLatin1Char('.'))
                            + remedyLink(provenance.remedy, outcome->options.partitioner)));
        }
    }
    QString method = optionsDescription(outcome->options);
    QString time = tr("%1 ms").arg(outcome->seconds * 1000, 0, 'f', 1);
    if (outcome->budget) {
        // Named as the Partitioner box names it (PyTorch runs it inside its min-cut partitioner).
        method = tr("memory budget · %1 · %2 rules")
                     .arg(budgetMethodText(outcome->budget->settings),
                         toQString(ruleSetName(outcome->options.rules)));
        // Only the first budget of a graph + tags pays for preparing it; the next ones re-plan.
        if (outcome->budget->sessionSeconds > 0)
            time += tr(" (%1 ms of it preparing the graph)")
                        .arg(outcome->budget->sessionSeconds * 1000, 0, 'f', 1);
    }
    m_status->setText(tr("%1 · %2").arg(method, time)
        + (r.notes.empty()
                ? QString()
                : QStringLiteral("<br>") + QString::fromStdString(r.notes.front()).toHtmlEscaped()));
    // The tables kept the rows the user selected; a node that moved to another list (a tag made
    // it recomputed) is selected there.
    showCurrentNodeInLists(true);
}

void PartitionPanel::onSelectionChanged(int origin)
{
    if (static_cast<NodeSelection::Origin>(origin) == NodeSelection::Origin::Table)
        return;
    showCurrentNodeInLists(false);
}

void PartitionPanel::showCurrentNodeInLists(bool onlyWhereUnselected)
{
    // Follow the canvas: select the node's row where it has one.
    m_updatingControls = true;
    const NodeId n = m_selection->currentNode();
    for (int i = 0; i < 3; ++i) {
        QTreeView* view = m_views[i];
        const int row = m_models[i]->rowOf(n);
        if (onlyWhereUnselected && (row < 0 || view->selectionModel()->hasSelection()))
            continue;
        view->selectionModel()->clearSelection();
        if (row < 0)
            continue;
        const QModelIndex index = m_proxies[i]->mapFromSource(m_models[i]->index(row, 0));
        if (index.isValid()) {
            view->selectionModel()->setCurrentIndex(
                index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
            view->scrollTo(index);
        }
    }
    m_updatingControls = false;
}

} // namespace remat::ui
