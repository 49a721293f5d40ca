// SPDX-License-Identifier: MIT
#include "panels/compare_panel.h"

#include "budget/runtime_text.h"
#include "canvas/canvas_state.h"
#include "canvas/graph_scene.h"
#include "document/graph_document.h"
#include "document/node_selection.h"
#include "explain/recorded_comparison.h"
#include "model/budget_text.h"
#include "model/node_text.h"
#include "panels/plan_choice_editor.h"
#include "panels/timeline_panel.h"

#include "panels/value_sorted_item.h"
#include "plots/plot_units.h"

#include <QCheckBox>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTimer>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace remat::ui {
namespace {

constexpr int kDebounceMs = 200;

} // namespace

ComparePanel::ComparePanel(GraphDocument* document, GraphScene* scene, NodeSelection* selection,
    TimelinePanel* timeline, PlanAnalyst* analyst, QWidget* parent)
    : QWidget(parent)
    , m_document(document)
    , m_scene(scene)
    , m_selection(selection)
    , m_timeline(timeline)
    , m_analyst(analyst)
    , m_a(new PlanChoiceEditor(PlanChoice::Kind::Current, this))
    , m_b(new PlanChoiceEditor(PlanChoice::Kind::PyTorch, this))
    , m_onCanvas(new QCheckBox(tr("Colour the canvas: A only, B only, both"), this))
    , m_summary(new QLabel(this))
    , m_table(new QTreeWidget(this))
    , m_debounce(new QTimer(this))
{
    setObjectName(QStringLiteral("ComparePanel"));
    m_onCanvas->setChecked(true);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_table->setHeaderLabels({tr("value"), tr("saved by"), tr("bytes")});
    m_table->setRootIsDecorated(false);
    m_table->setSortingEnabled(true);
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    // The name takes what the narrow dock leaves; who saves it and its bytes are always read whole.
    m_table->header()->setStretchLastSection(false);
    m_table->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_table->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_table->header()->setSectionResizeMode(2, QHeaderView::ResizeToContents);
    // Sized from the rows in view: measuring every row's text again for each comparison (716 rows
    // on gpt_n96) kept the GUI thread 13-38 ms, now 4-9 ms.
    m_table->header()->setResizeContentsPrecision(0);
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(kDebounceMs);

    auto* sides = new QFormLayout;
    sides->addRow(tr("A:"), m_a);
    sides->addRow(tr("B:"), m_b);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(sides);
    layout->addWidget(m_onCanvas);
    layout->addWidget(m_summary);
    layout->addWidget(m_table, 1);
    layout->addStretch(); // takes the height the table leaves when it hides (nothing differs)

    connect(m_a, &PlanChoiceEditor::changed, m_debounce, qOverload<>(&QTimer::start));
    connect(m_b, &PlanChoiceEditor::changed, m_debounce, qOverload<>(&QTimer::start));
    connect(m_debounce, &QTimer::timeout, this, &ComparePanel::compareNow);
    connect(m_onCanvas, &QCheckBox::toggled, this, &ComparePanel::applyToCanvas);
    connect(m_analyst, &PlanAnalyst::compared, this, &ComparePanel::onCompared);
    connect(m_document, &GraphDocument::graphChanged, this, [this] {
        m_pair.reset();
        m_table->clear();
        m_summary->clear();
    });
    // The current plan changed: compare again (only while the dock is shown).
    connect(m_document, &GraphDocument::partitionChanged, this, [this] {
        if (m_shown)
            m_debounce->start();
    });
    connect(m_table, &QTreeWidget::itemSelectionChanged, this, [this] {
        std::vector<NodeId> nodes;
        for (QTreeWidgetItem* item : m_table->selectedItems())
            nodes.push_back(static_cast<NodeId>(item->data(0, Qt::UserRole).toInt()));
        if (!nodes.empty())
            m_selection->select(nodes, {}, NodeSelection::Origin::Table);
    });
    m_summary->setText(tr("Pick two plans: the canvas colours what each saves."));
}

void ComparePanel::compareNow()
{
    if (!m_document->graph())
        return;
    m_summary->setText(tr("Comparing %1 with %2…").arg(m_a->choice().label(), m_b->choice().label()));
    const PlanRequest current = PlanAnalyst::requestFor(
        m_document->partitionOptions(), m_document->budgetMode(), m_document->budgetSettings());
    m_analyst->compare(current, m_a->choice(), m_b->choice());
}

void ComparePanel::onCompared(const PlanPairPtr& pair)
{
    m_pair = pair;
    m_table->setSortingEnabled(false);
    m_table->clear();
    if (!pair->error.isEmpty()) {
        m_table->hide();
        m_summary->setText(tr("<b>Cannot compare:</b> %1").arg(pair->error.toHtmlEscaped()));
        applyToCanvas();
        m_timeline->setComparison(nullptr, QString());
        return;
    }
    const LoadedGraphPtr graph = m_document->graph();
    auto add = [&](const std::vector<NodeId>& nodes, const QString& side) {
        for (NodeId n : nodes) {
            auto* item = new ValueSortedItem(m_table, 2);
            item->setText(0, graph->label(n).name);
            item->setToolTip(0, graph->label(n).op); // an input's name in the model, else its op
            item->setData(0, Qt::UserRole, n);
            item->setText(1, side);
            item->setText(2, formatBytes(graph->bytesOf(n)));
            item->setData(2, Qt::UserRole, static_cast<qlonglong>(graph->bytesOf(n)));
            item->setTextAlignment(2, Qt::AlignRight | Qt::AlignVCenter);
        }
    };
    add(pair->comparison.onlyInA, tr("A only"));
    add(pair->comparison.onlyInB, tr("B only"));
    // Nothing differs: the summary says so, and an empty table would only look unfinished.
    m_table->setVisible(m_table->topLevelItemCount() > 0);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(2, Qt::DescendingOrder);
    m_summary->setText(summaryText());
    applyToCanvas();
    auto outcomeB = std::make_shared<PartitionOutcome>();
    outcomeB->options = pair->b->options;
    outcomeB->result = pair->b;
    m_timeline->setComparison(outcomeB, QStringLiteral("B (%1)").arg(pair->labelB));
}

QString ComparePanel::summaryText() const
{
    if (!m_pair || !m_pair->error.isEmpty())
        return {};
    const PlanComparison& c = m_pair->comparison;
    const std::string& unit = c.a.runtimeUnit;
    QString text
        = tr("<b>A</b> = %1: %2 saved (%3)%20, peak %4, recompute %5, %6 recomputed.<br>"
             "<b>B</b> = %7: %8 saved (%9)%21, peak %10, recompute %11, %12 recomputed.<br>"
             "<b>B − A</b>: saved %13, peak %14, recompute %15, recomputed nodes %16. "
             "%17 values saved by A only, %18 by B only, %19 by both.")
              .arg(m_pair->labelA.toHtmlEscaped())
              .arg(c.a.savedCount)
              .arg(formatBytes(c.a.savedBytes), formatBytes(c.a.peakBytes),
                  formatRuntime(c.a.estimatedRuntime, unit))
              .arg(c.a.recomputedCount)
              .arg(m_pair->labelB.toHtmlEscaped())
              .arg(c.b.savedCount)
              .arg(formatBytes(c.b.savedBytes), formatBytes(c.b.peakBytes),
                  formatRuntime(c.b.estimatedRuntime, unit))
              .arg(c.b.recomputedCount)
              .arg(formatBytesDelta(c.b.savedBytes - c.a.savedBytes),
                  formatBytesDelta(c.b.peakBytes - c.a.peakBytes),
                  formatRuntimeDelta(c.b.estimatedRuntime - c.a.estimatedRuntime, unit))
              .arg(QStringLiteral("%1%2")
                       .arg(c.b.recomputedCount - c.a.recomputedCount >= 0 ? QStringLiteral("+") : QString())
                       .arg(c.b.recomputedCount - c.a.recomputedCount))
              .arg(c.onlyInA.size())
              .arg(c.onlyInB.size())
              .arg(c.inBoth.size())
              .arg(symIntsText(static_cast<std::size_t>(c.a.savedSymCount))
                      + rngStatesText(static_cast<std::size_t>(c.a.rngStateCount)),
                  symIntsText(static_cast<std::size_t>(c.b.savedSymCount))
                      + rngStatesText(static_cast<std::size_t>(c.b.rngStateCount)));
    if (const std::string note = flooredOpsNote(c.b.flooredRecomputeCount - c.a.flooredRecomputeCount, unit);
        !note.empty())
        text += tr("<br>Recompute B − A: %1.").arg(QString::fromStdString(note).toHtmlEscaped());
    if (c.onlyInA.empty() && c.onlyInB.empty())
        text += tr("<br><b>Both plans save the same values.</b>");
    if (const std::string note = replacedSymbolNote(m_document->graph()->graph, c.onlyInA, c.onlyInB);
        !note.empty())
        text += QStringLiteral("<br>") + QString::fromStdString(note).toHtmlEscaped() + QLatin1Char('.');
    return text;
}

void ComparePanel::applyToCanvas()
{
    const LoadedGraphPtr graph = m_document->graph();
    if (!graph || !m_pair || !m_pair->error.isEmpty() || !m_onCanvas->isChecked() || !m_shown) {
        if (m_scene->state().comparingPlans())
            m_scene->setPlanComparison({});
        return;
    }
    std::vector<std::uint8_t> sides(graph->size(), CanvasState::InNeither);
    for (NodeId n : m_pair->comparison.onlyInA)
        sides[static_cast<std::size_t>(n)] = CanvasState::OnlyA;
    for (NodeId n : m_pair->comparison.onlyInB)
        sides[static_cast<std::size_t>(n)] = CanvasState::OnlyB;
    for (NodeId n : m_pair->comparison.inBoth)
        sides[static_cast<std::size_t>(n)] = CanvasState::InBoth;
    m_scene->setPlanComparison(std::move(sides));
}

bool ComparePanel::isPending() const
{
    return m_debounce->isActive();
}

void ComparePanel::setShown(bool shown)
{
    if (shown == m_shown)
        return;
    m_shown = shown;
    if (shown && !m_pair)
        m_debounce->start();
    else
        applyToCanvas(); // shown: colours the canvas; hidden: clears its colours
}

} // namespace remat::ui
