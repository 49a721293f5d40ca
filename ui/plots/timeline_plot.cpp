// SPDX-License-Identifier: MIT
#include "plots/timeline_plot.h"

#include "model/node_text.h"
#include "plots/plot_title.h"
#include "plots/plot_units.h"

#include <QToolTip>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>
#include <vector>

namespace remat::ui {
namespace {

/// Bottom to top: what lives longest first, so that the stack reads like an allocator's view.
/// Where the phase labels hang, in parts of the plot's height from its top; the space above the
/// highest value, at least; the most of the height that room for the labels may take.
constexpr double kPhaseLabelTop = 0.02;
constexpr double kHeadroom = 1.15;
constexpr double kMostLabelRoom = 0.6;
constexpr double kLabelGapPixels = 2;
/// About this many pixels between the y axis's ticks (QCustomPlot's default of five ticks crowds
/// a short dock's axis with eight labels).
constexpr int kPixelsPerTick = 36;
/// The most columns of legend entries, in row order, that fit in `width` pixels: under the plot,
/// a wide dock then gives the legend's rows of height to the plot.
int legendColumnsThatFit(const QCPLegend& legend, int width)
{
    std::vector<int> widths;
    for (int i = 0; i < legend.itemCount(); ++i) {
        if (const QCPAbstractLegendItem* item = legend.item(i)) // the grid's empty cells count too
            widths.push_back(item->minimumOuterSizeHint().width());
    }
    const QMargins margins = legend.margins();
    for (int columns = static_cast<int>(widths.size()); columns > 1; --columns) {
        std::vector<int> columnWidth(static_cast<std::size_t>(columns), 0);
        for (std::size_t i = 0; i < widths.size(); ++i) {
            int& w = columnWidth[i % static_cast<std::size_t>(columns)];
            w = std::max(w, widths[i]);
        }
        int needed = margins.left() + margins.right() + legend.columnSpacing() * (columns - 1);
        for (int w : columnWidth)
            needed += w;
        if (needed <= width)
            return columns;
    }
    return 1;
}

constexpr MemoryCategory kStackOrder[]
    = {MemoryCategory::Inputs, MemoryCategory::Saved, MemoryCategory::Recomputed, MemoryCategory::Gradients,
        MemoryCategory::Outputs, MemoryCategory::Temporaries};

QColor categoryColour(MemoryCategory category)
{
    switch (category) {
    case MemoryCategory::Inputs:
        return {150, 150, 160};
    case MemoryCategory::Saved:
        return {60, 160, 80};
    case MemoryCategory::Recomputed:
        return {140, 90, 190};
    case MemoryCategory::Gradients:
        return {60, 120, 200};
    case MemoryCategory::Outputs:
        return {220, 170, 40};
    case MemoryCategory::Temporaries:
        return {235, 130, 110};
    }
    return Qt::gray;
}

QString categoryTitle(MemoryCategory category)
{
    switch (category) {
    case MemoryCategory::Inputs:
        return TimelinePlot::tr("parameters and inputs");
    case MemoryCategory::Saved:
        return TimelinePlot::tr("saved activations");
    case MemoryCategory::Recomputed:
        return TimelinePlot::tr("recomputed values");
    case MemoryCategory::Gradients:
        return TimelinePlot::tr("gradients");
    case MemoryCategory::Outputs:
        return TimelinePlot::tr("forward outputs");
    case MemoryCategory::Temporaries:
        return TimelinePlot::tr("temporaries");
    }
    return {};
}

QCPItemStraightLine* verticalLine(QCustomPlot* plot, double x, const QPen& pen)
{
    auto* line = new QCPItemStraightLine(plot);
    line->point1->setCoords(x, 0);
    line->point2->setCoords(x, 1);
    line->setPen(pen);
    return line;
}

} // namespace

TimelinePlot::TimelinePlot(QWidget* parent)
    : QWidget(parent)
    , m_plot(new QCustomPlot(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    m_plot->setObjectName(QStringLiteral("TimelineCustomPlot"));
    // A replot asks for a paint instead of painting at once: repaint() would paint every dirty
    // widget of the window (the canvas too) inside the plan change that caused the replot.
    m_plot->setPlottingHint(QCP::phImmediateRefresh, false);
    m_plot->setMouseTracking(true);
    m_plot->setInteractions(QCP::iRangeZoom | QCP::iRangeDrag);
    m_plot->axisRect()->setRangeZoom(Qt::Horizontal);
    m_plot->axisRect()->setRangeDrag(Qt::Horizontal);
    m_plot->legend->setFont(QFont(font().family(), 8));
    // The legend goes under the plot, in as many columns as fit (fitToSize): inside, it would hide
    // the peak.
    auto* legendRow = new QCPLayoutGrid;
    m_plot->plotLayout()->addElement(m_plot->plotLayout()->rowCount(), 0, legendRow);
    legendRow->setMargins(QMargins(0, 0, 0, 0));
    legendRow->addElement(0, 0, m_plot->legend);
    m_plot->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    m_plot->legend->setWrap(3);
    m_plot->legend->setBorderPen(Qt::NoPen);
    m_plot->plotLayout()->setRowStretchFactor(m_plot->plotLayout()->rowCount() - 1, 0.001);
    setMinimumSize(320, 200);
    connect(m_plot, &QCustomPlot::mouseMove, this, &TimelinePlot::onMouseMove);
    connect(m_plot, &QCustomPlot::afterLayout, this, &TimelinePlot::fitToSize);
    connect(m_plot, &QCustomPlot::mousePress, this,
        [this](QMouseEvent* event) { m_pressPosition = event->position().toPoint(); });
    connect(m_plot, &QCustomPlot::mouseRelease, this, [this](QMouseEvent* event) {
        // A click, not the end of a pan.
        if (event->button() == Qt::LeftButton
            && (event->position().toPoint() - m_pressPosition).manhattanLength() < 5) {
            if (const int step = stepAt(event->position().toPoint()); step >= 0)
                Q_EMIT stepClicked(step);
        }
    });
    rebuild();
}

void TimelinePlot::fitToSize()
{
    // The viewport, not the widget: an export lays the plot out at the picture's size.
    const int columns = legendColumnsThatFit(*m_plot->legend, m_plot->viewport().width());
    if (m_plot->legend->wrap() != columns) {
        m_plot->legend->setWrap(columns);
        m_plot->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true); // re-wraps the entries
        // This drawing (a picture's, maybe the only one) is already laid out: again, with the new rows.
        for (const auto phase :
            {QCPLayoutElement::upPreparation, QCPLayoutElement::upMargins, QCPLayoutElement::upLayout})
            m_plot->plotLayout()->update(phase);
    }
    const double height = m_plot->axisRect()->height();
    if (height <= 0)
        return;
    const int ticks = std::clamp(static_cast<int>(height) / kPixelsPerTick, 2, 5);
    if (m_plot->yAxis->ticker()->tickCount() != ticks)
        m_plot->yAxis->ticker()->setTickCount(ticks);
    if (!m_peakLabel || !m_forwardLabel)
        return;
    const auto textHeight = [](const QCPItemText* text) {
        return text->bottomLeft->pixelPosition().y() - text->topLeft->pixelPosition().y();
    };
    // From the plot's top down: the phase labels, a gap, then the peak's label over the peak.
    const double above
        = kPhaseLabelTop * height + textHeight(m_forwardLabel) + kLabelGapPixels + textHeight(m_peakLabel);
    const double share = std::min(above / height, kMostLabelRoom);
    const double top = std::max(m_largestValue * kHeadroom, m_peakValue / (1 - share));
    if (qFuzzyCompare(m_plot->yAxis->range().upper, top))
        return;
    // This replot draws with the new range; the queued one follows up on tick labels that changed width.
    m_plot->yAxis->setRange(0, top);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void TimelinePlot::setProfile(std::shared_ptr<const JointGraph> graph, PlanProfilePtr profile)
{
    m_graph = std::move(graph);
    m_profile = std::move(profile);
    m_selectedStep = -1;
    rebuild();
}

void TimelinePlot::setComparison(PlanProfilePtr profile)
{
    m_comparison = std::move(profile);
    rebuild();
}

void TimelinePlot::clear()
{
    m_graph.reset();
    m_profile.reset();
    m_comparison.reset();
    m_selectedStep = -1;
    rebuild();
}

void TimelinePlot::setSelectedStep(int step)
{
    m_selectedStep = step;
    if (!m_selectedLine)
        return;
    m_selectedLine->setVisible(step >= 0);
    m_selectedLine->point1->setCoords(step, 0);
    m_selectedLine->point2->setCoords(step, 1);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void TimelinePlot::setTitle(const QString& title)
{
    m_title = setPlotTitle(m_plot, m_title, title);
}

QCPGraph* TimelinePlot::addCategoryGraph(MemoryCategory category)
{
    QCPGraph* g = m_plot->addGraph();
    const QColor colour = categoryColour(category);
    g->setPen(QPen(colour.darker(120), 0.8));
    QColor fill = colour;
    fill.setAlpha(200);
    g->setBrush(fill);
    g->setName(categoryTitle(category));
    g->setLineStyle(QCPGraph::lsStepLeft);
    return g;
}

void TimelinePlot::rebuild()
{
    m_plot->clearGraphs();
    m_plot->clearItems();
    m_selectedLine = nullptr;
    m_forwardLabel = nullptr;
    m_peakLabel = nullptr;
    const bool has = m_profile && m_profile->ok() && !m_profile->profile.timeline.empty();
    m_plot->legend->setVisible(true);
    m_plot->xAxis->setLabel(tr("step (forward, then backward in autograd's order)"));
    if (!has) {
        // The categories' legend stays, empty of data: without entries the legend under the plot
        // is a few pixels wide, and its column squeezed the axes to 50 pixels on the left.
        for (MemoryCategory category : kStackOrder)
            addCategoryGraph(category);
        m_plot->yAxis->setLabel(tr("live memory"));
        m_plot->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    const MemoryProfile& profile = m_profile->profile;
    double largest = static_cast<double>(profile.peakBytes);
    for (const MemoryStep& s : profile.timeline)
        largest = std::max(largest, static_cast<double>(s.total() + s.hostBytes));
    if (m_comparison && m_comparison->ok())
        largest = std::max(largest, static_cast<double>(m_comparison->profile.peakBytes));
    const AxisUnit unit = byteUnit(largest);
    m_yScale = unit.scale;
    m_plot->yAxis->setLabel(tr("live memory (%1)").arg(unit.name));

    const auto steps = static_cast<qsizetype>(profile.timeline.size());
    QVector<double> x(steps);
    for (qsizetype i = 0; i < steps; ++i)
        x[i] = static_cast<double>(i);
    std::vector<double> running(static_cast<std::size_t>(steps), 0.0);
    QCPGraph* below = nullptr;
    for (MemoryCategory category : kStackOrder) {
        QVector<double> y(steps);
        for (qsizetype i = 0; i < steps; ++i) {
            running[static_cast<std::size_t>(i)] += static_cast<double>(
                profile.timeline[static_cast<std::size_t>(i)].bytes[static_cast<std::size_t>(category)]);
            y[i] = running[static_cast<std::size_t>(i)] / m_yScale;
        }
        QCPGraph* g = addCategoryGraph(category);
        if (below)
            g->setChannelFillGraph(below);
        g->setData(x, y, true);
        below = g;
    }
    if (profile.peakHostBytes > 0) {
        // Activation offloading: a hatched band on top of the device's total, what the host holds
        // instead (it would be on the device without the pass).
        QVector<double> y(steps);
        for (qsizetype i = 0; i < steps; ++i)
            y[i] = (running[static_cast<std::size_t>(i)]
                       + static_cast<double>(profile.timeline[static_cast<std::size_t>(i)].hostBytes))
                / m_yScale;
        QCPGraph* host = m_plot->addGraph();
        const QColor offloadColour(0x00, 0x97, 0xa7); // the canvas's offload-tag colour
        host->setPen(QPen(offloadColour, 1.0, Qt::DashLine));
        host->setBrush(QBrush(offloadColour, Qt::BDiagPattern));
        host->setChannelFillGraph(below);
        host->setName(tr("offloaded to the host (max %1)").arg(formatBytes(profile.peakHostBytes)));
        host->setData(x, y, true);
        host->setLineStyle(QCPGraph::lsStepLeft);
    }

    if (m_comparison && m_comparison->ok()) {
        const auto& other = m_comparison->profile.timeline;
        QVector<double> cx, cy;
        for (std::size_t i = 0; i < other.size(); ++i) {
            cx << static_cast<double>(i);
            cy << static_cast<double>(other[i].total()) / m_yScale;
        }
        QCPGraph* line = m_plot->addGraph();
        line->setPen(QPen(QColor(20, 20, 20), 1.6, Qt::DashLine));
        line->setName(tr("total of %1 (peak %2)")
                          .arg(m_comparison->label, formatBytes(m_comparison->profile.peakBytes)));
        line->setData(cx, cy, true);
        line->setLineStyle(QCPGraph::lsStepLeft);
    }

    const double boundary = profile.forwardSteps - 0.5;
    verticalLine(m_plot, boundary, QPen(Qt::black, 1, Qt::DashLine));
    auto* fw = new QCPItemText(m_plot);
    fw->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    fw->position->setCoords(boundary, kPhaseLabelTop);
    fw->setPositionAlignment(Qt::AlignRight | Qt::AlignTop);
    fw->setText(tr("forward ◂ "));
    auto* bw = new QCPItemText(m_plot);
    bw->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    bw->position->setCoords(boundary, kPhaseLabelTop);
    bw->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
    bw->setText(tr(" ▸ backward"));
    m_forwardLabel = fw;

    if (profile.peakStep >= 0) {
        verticalLine(m_plot, profile.peakStep, QPen(QColor(200, 0, 0), 1.2));
        auto* peak = new QCPItemText(m_plot);
        peak->position->setCoords(profile.peakStep, static_cast<double>(profile.peakBytes) / m_yScale);
        // The label runs away from the nearer edge, so that it is never clipped.
        const bool lateStep = 2 * profile.peakStep > static_cast<int>(profile.timeline.size());
        peak->setPositionAlignment((lateStep ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignBottom);
        const QString node = m_graph && profile.peakNode != kNoNode
            ? QString::fromStdString(m_graph->node(profile.peakNode).name)
            : QString();
        peak->setText(tr("peak %1 at step %2 (%3)")
                          .arg(formatBytes(profile.peakBytes))
                          .arg(profile.peakStep)
                          .arg(node));
        peak->setColor(QColor(200, 0, 0));
        peak->setFont(QFont(font().family(), 8, QFont::Bold));
        peak->setClipToAxisRect(false);
        m_peakLabel = peak;
    }
    m_selectedLine = verticalLine(m_plot, std::max(m_selectedStep, 0), QPen(QColor(0, 90, 200), 1.5));
    m_selectedLine->setVisible(m_selectedStep >= 0);

    m_plot->rescaleAxes();
    m_largestValue = largest / m_yScale;
    m_peakValue = static_cast<double>(profile.peakBytes) / m_yScale;
    m_plot->yAxis->setRange(0, m_largestValue * kHeadroom);
    // B may take more steps than A (it recomputes more): its line is shown to its end.
    qsizetype shownSteps = steps;
    if (m_comparison && m_comparison->ok())
        shownSteps = std::max(shownSteps, static_cast<qsizetype>(m_comparison->profile.timeline.size()));
    m_plot->xAxis->setRange(-0.5, static_cast<double>(shownSteps) - 0.5);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

int TimelinePlot::stepAt(const QPoint& position) const
{
    if (!m_profile || !m_profile->ok() || !m_plot->axisRect()->rect().contains(position))
        return -1;
    const auto step = static_cast<long long>(std::lround(m_plot->xAxis->pixelToCoord(position.x())));
    if (step < 0 || step >= static_cast<long long>(m_profile->profile.timeline.size()))
        return -1;
    return static_cast<int>(step);
}

QString TimelinePlot::describeStep(int step) const
{
    const MemoryStep& s = m_profile->profile.timeline[static_cast<std::size_t>(step)];
    QString text
        = tr("<b>step %1</b> (%2)").arg(step).arg(s.phase == Phase::Forward ? tr("forward") : tr("backward"));
    if (m_graph && s.node != kNoNode)
        text += tr("<br>runs <b>%1</b> (%2)")
                    .arg(QString::fromStdString(m_graph->node(s.node).name).toHtmlEscaped(),
                        opLabel(*m_graph, s.node).toHtmlEscaped());
    text += tr("<br>live: %1").arg(formatBytes(s.total()));
    for (MemoryCategory category : kStackOrder) {
        const std::int64_t bytes = s.bytes[static_cast<std::size_t>(category)];
        if (bytes > 0)
            text += QStringLiteral("<br>&nbsp;&nbsp;%1: %2").arg(categoryTitle(category), formatBytes(bytes));
    }
    if (s.hostBytes > 0)
        text += tr("<br>offloaded, on the host: %1").arg(formatBytes(s.hostBytes));
    return text + tr("<br><i>click to list the tensors alive here</i>");
}

void TimelinePlot::onMouseMove(QMouseEvent* event)
{
    const QPoint position = event->position().toPoint();
    const int step = stepAt(position);
    if (step < 0) {
        QToolTip::hideText();
        return;
    }
    QToolTip::showText(m_plot->mapToGlobal(position), describeStep(step), m_plot);
}

} // namespace remat::ui
