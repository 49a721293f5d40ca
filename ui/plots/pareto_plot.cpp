// SPDX-License-Identifier: MIT
#include "plots/pareto_plot.h"

#include "model/budget_text.h"
#include "model/node_text.h"
#include "plots/plot_title.h"
#include "plots/plot_units.h"
#include "plots/point_labels.h"
#include "plots/recorded_plan_text.h"

#include <QToolTip>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>

namespace remat::ui {

QString budgetsOfPlan(const ParetoPoint& point)
{
    // One budget alone read as the only one: a bisection's 6.1e-07, where every budget above 0
    // gives that plan. A range that prints as one number (gpt_n96: 0.2581 to 0.2584) is one.
    const QString from = QString::number(point.budget, 'g', 3);
    const QString to = QString::number(point.budgetMax, 'g', 3);
    return from != to ? QObject::tr("budgets %1 to %2").arg(from, to) : QObject::tr("budget %1").arg(from);
}

namespace {

const QColor kActivationColour(31, 119, 180);
const QColor kPeakColour(230, 120, 20);
const QColor kRecordedColour(200, 30, 40);
const QColor kCurrentColour(20, 20, 20);
const QString kCurrentLayer = QStringLiteral("current plan"); ///< the ring's layer, above the points
constexpr int kFaintAlpha = 60;
constexpr double kPickRadius = 9; // pixels

QString stageText(BudgetStage stage)
{
    const std::string_view name = stageName(stage);
    return QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size()));
}

/// Which points no other point beats on both x and y (ties kept).
std::vector<bool> frontierOf(const std::vector<std::pair<double, double>>& xy)
{
    std::vector<std::size_t> order(xy.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return xy[a] < xy[b]; });
    std::vector<bool> on(xy.size(), false);
    double best = std::numeric_limits<double>::infinity();
    for (std::size_t i : order) {
        if (xy[i].second < best) {
            on[i] = true;
            best = xy[i].second;
        }
    }
    return on;
}

QCPGraph* scatterGraph(QCustomPlot* plot, const QColor& colour, QCPScatterStyle::ScatterShape shape,
    double size, const QString& name)
{
    QCPGraph* g = plot->addGraph();
    g->setLineStyle(QCPGraph::lsNone);
    g->setScatterStyle(QCPScatterStyle(
        shape, colour, shape == QCPScatterStyle::ssCircle ? Qt::NoBrush : QBrush(colour), size));
    g->setName(name);
    if (name.isEmpty())
        g->removeFromLegend();
    return g;
}

QColor faint(QColor colour)
{
    colour.setAlpha(kFaintAlpha);
    return colour;
}

} // namespace

ParetoPlot::ParetoPlot(QWidget* parent)
    : QWidget(parent)
    , m_plot(new QCustomPlot(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    m_plot->setObjectName(QStringLiteral("ParetoCustomPlot"));
    // A replot asks for a paint instead of painting at once: repaint() would paint every dirty
    // widget of the window (the canvas too) inside the plan change that caused the replot.
    m_plot->setPlottingHint(QCP::phImmediateRefresh, false);
    // The current plan's ring has a layer and paint buffer of its own: picking another plan then
    // redraws the ring, not the thousands of points a big sweep has (60 ms a click on gpt_n96).
    m_plot->addLayer(kCurrentLayer, m_plot->layer(QStringLiteral("main")), QCustomPlot::limAbove);
    m_plot->layer(kCurrentLayer)->setMode(QCPLayer::lmBuffered);
    m_plot->setInteractions(QCP::iRangeZoom);
    m_plot->setMouseTracking(true);
    m_plot->legend->setVisible(true);
    m_plot->legend->setFont(QFont(font().family(), 8));
    // The legend has a column of its own right of the plot, at its top: inside, in the short
    // Budget Trade-off dock, it was taller than the half it was kept to and hid points of the curve.
    m_legendColumn = new QCPLayoutGrid;
    m_plot->axisRect()->insetLayout()->take(m_plot->legend);
    m_plot->plotLayout()->addElement(0, 1, m_legendColumn);
    m_plot->plotLayout()->setColumnStretchFactor(1, 0.001);
    m_legendColumn->setMargins(QMargins(0, 0, 6, 0));
    m_legendColumn->addElement(0, 0, m_plot->legend);
    m_legendColumn->addElement(1, 0, new QCPLayoutElement(m_plot)); // takes the height below
    m_legendColumn->setRowStretchFactor(0, 0.001);
    setMinimumSize(320, 220);
    connect(m_plot, &QCustomPlot::mouseMove, this, &ParetoPlot::onMouseMove);
    connect(m_plot, &QCustomPlot::mousePress, this, &ParetoPlot::onMousePress);
    connect(m_plot, &QCustomPlot::mouseRelease, this, [this] { m_dragging = false; });
    // Labels are kept apart in pixels: again whenever the plot is laid out (resized, zoomed, exported).
    connect(m_plot, &QCustomPlot::afterLayout, this, [this] { placePointLabels(m_pointLabels); });
    rebuild();
}

void ParetoPlot::setSnapshot(ParetoSnapshotPtr snapshot)
{
    m_snapshot = std::move(snapshot);
    rebuild();
}

void ParetoPlot::setSeries(Series series)
{
    if (series == m_series)
        return;
    m_series = series;
    rebuild();
}

void ParetoPlot::setCurrentBudget(std::optional<double> budget)
{
    if (budget == m_currentBudget)
        return;
    m_currentBudget = budget;
    if (!moveCurrentMarker())
        rebuild();
}

bool ParetoPlot::moveCurrentMarker()
{
    const int current = m_currentBudget ? pointForBudget(*m_currentBudget) : -1;
    if (!m_currentMarker || current < 0)
        return false;
    QVector<double> x, y;
    currentMarkerData(current, x, y);
    m_currentMarker->setData(x, y);
    m_plot->layer(kCurrentLayer)->replot();
    return true;
}

void ParetoPlot::currentMarkerData(int point, QVector<double>& x, QVector<double>& y) const
{
    const ParetoPoint& p = m_snapshot->result.points[static_cast<std::size_t>(point)];
    for (bool peak : {false, true}) {
        if (showsSeries(peak)) {
            x << xOf(point, peak);
            y << p.metrics.estimatedRuntime / m_yScale;
        }
    }
}

void ParetoPlot::clear()
{
    m_snapshot.reset();
    m_currentBudget.reset();
    rebuild();
}

int ParetoPlot::pointForBudget(double budget) const
{
    if (!m_snapshot || m_snapshot->result.points.empty())
        return -1;
    const auto& points = m_snapshot->result.points;
    // Points are by budget: the last one starting at or below `budget` holds it.
    int best = 0;
    for (std::size_t i = 0; i < points.size(); ++i) {
        if (points[i].budget <= budget + 1e-12)
            best = static_cast<int>(i);
    }
    return best;
}

int ParetoPlot::lowestPeakPoint() const
{
    if (!m_snapshot)
        return -1;
    const auto& points = m_snapshot->result.points;
    std::optional<std::int64_t> lowest;
    for (const ParetoPoint& p : points) {
        if (p.metrics.peakBytes && (!lowest || *p.metrics.peakBytes < *lowest))
            lowest = p.metrics.peakBytes;
    }
    if (!lowest)
        return -1;
    constexpr double kSamePeak = 1.005;
    int best = -1;
    for (std::size_t i = 0; i < points.size(); ++i) {
        const auto& m = points[i].metrics;
        if (!m.peakBytes || static_cast<double>(*m.peakBytes) > static_cast<double>(*lowest) * kSamePeak)
            continue;
        if (best < 0 || m.estimatedRuntime < points[static_cast<std::size_t>(best)].metrics.estimatedRuntime)
            best = static_cast<int>(i);
    }
    return best;
}

void ParetoPlot::setTitle(const QString& title)
{
    m_title = setPlotTitle(m_plot, m_title, title);
}

double ParetoPlot::xOf(int index, bool peak) const
{
    const ParetoPoint& p = m_snapshot->result.points[static_cast<std::size_t>(index)];
    const double bytes = peak ? static_cast<double>(p.metrics.peakBytes.value_or(0))
                              : static_cast<double>(p.metrics.activationBytes);
    return bytes / m_xScale;
}

void ParetoPlot::rebuild()
{
    m_plot->clearGraphs();
    m_plot->clearItems();
    m_pointLabels.clear();
    const bool showActivations = m_series != Series::Peak;
    const bool showPeak = m_series != Series::Activations;
    const std::vector<ParetoPoint> empty;
    const auto& points = m_snapshot ? m_snapshot->result.points : empty;
    const std::string unit = m_snapshot ? m_snapshot->result.runtimeUnit : std::string("flops");

    double maxBytes = 1, maxRuntime = 0;
    for (const auto& p : points) {
        maxBytes = std::max({maxBytes, static_cast<double>(p.metrics.activationBytes),
            static_cast<double>(p.metrics.peakBytes.value_or(0))});
        maxRuntime = std::max(maxRuntime, p.metrics.estimatedRuntime);
    }
    const AxisUnit xUnit = byteUnit(maxBytes);
    const AxisUnit yUnit = runtimeUnit(unit, maxRuntime);
    m_xScale = xUnit.scale;
    m_yScale = yUnit.scale;
    m_plot->xAxis->setLabel(tr("memory (%1)").arg(xUnit.name));
    m_plot->yAxis->setLabel(tr("estimated recompute (%1)").arg(yUnit.name));

    auto addSeries = [&](bool peak, const QColor& colour, const QString& name) {
        std::vector<std::pair<double, double>> xy;
        for (std::size_t i = 0; i < points.size(); ++i)
            xy.emplace_back(xOf(static_cast<int>(i), peak), points[i].metrics.estimatedRuntime / m_yScale);
        const std::vector<bool> on = frontierOf(xy);
        QVector<double> fx, fy, dx, dy;
        std::vector<std::pair<double, double>> frontier;
        for (std::size_t i = 0; i < xy.size(); ++i) {
            if (on[i]) {
                fx << xy[i].first;
                fy << xy[i].second;
                frontier.push_back(xy[i]);
            } else {
                dx << xy[i].first;
                dy << xy[i].second;
            }
        }
        std::sort(frontier.begin(), frontier.end());
        QCPGraph* line = m_plot->addGraph();
        line->setLineStyle(QCPGraph::lsStepLeft);
        line->setPen(QPen(colour, 1.4));
        line->removeFromLegend();
        QVector<double> lx, ly;
        for (const auto& [x, y] : frontier) {
            lx << x;
            ly << y;
        }
        line->setData(lx, ly, true);
        scatterGraph(m_plot, faint(colour), QCPScatterStyle::ssDisc, 5, QString())->setData(dx, dy);
        scatterGraph(m_plot, colour, QCPScatterStyle::ssDisc, 6, name)->setData(fx, fy);
    };
    if (showActivations)
        addSeries(false, kActivationColour, tr("activation bytes (knapsack)"));
    if (showPeak)
        addSeries(true, kPeakColour, tr("simulated peak"));

    if (m_snapshot && !m_snapshot->recorded.empty()) {
        // Like the sweep's plans, each is drawn on every series shown; the label goes on one.
        QVector<double> rx, ry;
        // Budgets whose plans land on one point share one label ("PyTorch 0.25, 0.5").
        std::map<std::pair<double, double>, QStringList> budgetsAt;
        for (const auto& r : m_snapshot->recorded) {
            const double y = r.metrics.estimatedRuntime / m_yScale;
            for (bool peak : {false, true}) {
                if ((peak && showPeak && r.metrics.peakBytes) || (!peak && showActivations)) {
                    rx << recordedX(r, peak);
                    ry << y;
                }
            }
            // A plan of PyTorch's that ours does not reproduce is flagged where it is drawn.
            budgetsAt[{recordedX(r, !showActivations), y}]
                << (r.sameAsOurs ? QString::number(r.budget) : tr("%1 (not ours)").arg(r.budget));
        }
        for (const auto& [at, budgets] : budgetsAt) {
            auto* label = new QCPItemText(m_plot);
            label->position->setCoords(at.first, at.second);
            label->setText(QStringLiteral("PyTorch %1").arg(budgets.join(QStringLiteral(", "))));
            label->setColor(kRecordedColour);
            label->setFont(QFont(font().family(), 7));
            m_pointLabels.push_back(label);
        }
        scatterGraph(m_plot, kRecordedColour, QCPScatterStyle::ssCross, 11, tr("PyTorch's recorded plans"))
            ->setData(rx, ry);
    }

    // Activation offloading: plans whose saved values go partly to the host, ringed in the offload colour.
    QVector<double> ox, oy;
    for (std::size_t i = 0; i < points.size(); ++i) {
        if (points[i].metrics.offloadedBytes > 0) {
            ox << xOf(static_cast<int>(i), showPeak);
            oy << points[i].metrics.estimatedRuntime / m_yScale;
        }
    }
    if (!ox.isEmpty())
        scatterGraph(m_plot, QColor(0x00, 0x97, 0xa7), QCPScatterStyle::ssCircle, 10, tr("with CPU offload"))
            ->setData(ox, oy);

    if (const int low = lowestPeakPoint(); low >= 0) {
        const ParetoPoint& p = points[static_cast<std::size_t>(low)];
        const double x = xOf(low, showPeak);
        const double y = p.metrics.estimatedRuntime / m_yScale;
        scatterGraph(m_plot, QColor(150, 0, 150), QCPScatterStyle::ssStar, 16, tr("lowest peak"))
            ->setData({x}, {y});
        auto* label = new QCPItemText(m_plot);
        label->position->setCoords(x, y);
        m_pointLabels.push_back(label);
        label->setText(tr("lowest peak %1 (%2)").arg(formatBytes(*p.metrics.peakBytes), budgetsOfPlan(p)));
        label->setColor(QColor(150, 0, 150));
        label->setFont(QFont(font().family(), 8, QFont::Bold));
    }

    m_currentMarker = nullptr;
    if (m_currentBudget) {
        if (const int current = pointForBudget(*m_currentBudget); current >= 0) {
            QVector<double> cx, cy;
            currentMarkerData(current, cx, cy);
            m_currentMarker
                = scatterGraph(m_plot, kCurrentColour, QCPScatterStyle::ssCircle, 15, tr("current plan"));
            m_currentMarker->setLayer(kCurrentLayer);
            m_currentMarker->setData(cx, cy);
        }
    }

    m_plot->rescaleAxes();
    for (QCPAxis* axis : {m_plot->xAxis, m_plot->yAxis}) {
        QCPRange range = axis->range();
        const double margin = std::max(range.size() * 0.06, 1e-9);
        axis->setRange(std::min(range.lower - margin, axis == m_plot->yAxis ? -margin : range.lower - margin),
            range.upper + margin);
    }
    showLegend(!points.empty());
    // With no plan yet, numbers on the axes would only be QCustomPlot's default range.
    for (QCPAxis* axis : {m_plot->xAxis, m_plot->yAxis})
        axis->setTickLabels(!points.empty());
    if (points.empty()) {
        auto* hint = new QCPItemText(m_plot);
        hint->position->setType(QCPItemPosition::ptAxisRectRatio);
        hint->position->setCoords(0.5, 0.45);
        hint->setText(tr("No sweep yet. Choose the memory-budget partitioner, or press Sweep Budgets,\n"
                         "to see what every budget from 0 to 1 costs in memory and in recomputation."));
        hint->setColor(QColor(0x66, 0x66, 0x66));
        hint->setFont(QFont(font().family(), 10));
    }
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

int ParetoPlot::pointAt(const QPoint& position) const
{
    if (!m_snapshot)
        return -1;
    // On a cross, the sweep's plan at PyTorch's budget, not a neighbour a pixel nearer.
    for (const int i : recordedAt(position)) {
        if (const int point = pointForBudget(m_snapshot->recorded[static_cast<std::size_t>(i)].budget);
            point >= 0)
            return point;
    }
    int best = -1;
    double bestDistance = kPickRadius * kPickRadius;
    const auto& points = m_snapshot->result.points;
    for (std::size_t i = 0; i < points.size(); ++i) {
        for (bool peak : {false, true}) {
            if (!showsSeries(peak))
                continue;
            const QPointF pixel = pixelOf(static_cast<int>(i), peak);
            const double d = std::pow(pixel.x() - position.x(), 2) + std::pow(pixel.y() - position.y(), 2);
            if (d < bestDistance) {
                bestDistance = d;
                best = static_cast<int>(i);
            }
        }
    }
    return best;
}

bool ParetoPlot::showsSeries(bool peak) const
{
    return peak ? m_series != Series::Activations : m_series != Series::Peak;
}

double ParetoPlot::recordedX(const ParetoSnapshot::Recorded& plan, bool peak) const
{
    const bool atPeak = peak && plan.metrics.peakBytes;
    return static_cast<double>(atPeak ? *plan.metrics.peakBytes : plan.metrics.activationBytes) / m_xScale;
}

QPointF ParetoPlot::recordedPixel(int index, bool peak) const
{
    const auto& plan = m_snapshot->recorded[static_cast<std::size_t>(index)];
    return {m_plot->xAxis->coordToPixel(recordedX(plan, peak)),
        m_plot->yAxis->coordToPixel(plan.metrics.estimatedRuntime / m_yScale)};
}

std::vector<int> ParetoPlot::recordedAt(const QPoint& position) const
{
    std::vector<int> out;
    if (!m_snapshot)
        return out;
    for (std::size_t i = 0; i < m_snapshot->recorded.size(); ++i) {
        for (bool peak : {false, true}) {
            if (!showsSeries(peak))
                continue;
            const QPointF pixel = recordedPixel(static_cast<int>(i), peak);
            if (std::pow(pixel.x() - position.x(), 2) + std::pow(pixel.y() - position.y(), 2)
                < kPickRadius * kPickRadius) {
                out.push_back(static_cast<int>(i));
                break;
            }
        }
    }
    return out;
}

QString ParetoPlot::toolTipAt(const QPoint& position) const
{
    QStringList parts;
    if (const int index = pointAt(position); index >= 0)
        parts << describePoint(index);
    for (const int i : recordedAt(position))
        parts << describeRecordedPlan(
            m_snapshot->recorded[static_cast<std::size_t>(i)], m_snapshot->result.runtimeUnit);
    return parts.join(QStringLiteral("<hr>"));
}

QPointF ParetoPlot::pixelOf(int index, bool peak) const
{
    const ParetoPoint& p = m_snapshot->result.points[static_cast<std::size_t>(index)];
    return {m_plot->xAxis->coordToPixel(xOf(index, peak)),
        m_plot->yAxis->coordToPixel(p.metrics.estimatedRuntime / m_yScale)};
}

QString ParetoPlot::describePoint(int index) const
{
    const ParetoPoint& p = m_snapshot->result.points[static_cast<std::size_t>(index)];
    const std::string& unit = m_snapshot->result.runtimeUnit;
    const QString range = p.budget == p.budgetMax
        ? QString::number(p.budget, 'g', 4)
        : tr("%1 – %2").arg(p.budget, 0, 'g', 4).arg(p.budgetMax, 0, 'g', 4);
    return tr(
        "<b>budget %1</b><br>decided by: %2<br>activations %3 (memory ratio %4)<br>simulated peak %5<br>"
        "estimated recompute %6<br>%7 saved, %8 recomputed%9%10")
        .arg(range, stageText(p.stage).toHtmlEscaped(), formatBytes(p.metrics.activationBytes))
        .arg(p.metrics.memoryRatio ? QString::number(*p.metrics.memoryRatio, 'f', 3) : tr("undefined"))
        .arg(p.metrics.peakBytes ? formatBytes(*p.metrics.peakBytes) : tr("not simulated"),
            formatRuntime(p.metrics.estimatedRuntime, unit))
        .arg(p.savedCount)
        .arg(p.recomputedCount)
        .arg(dominanceText(index),
            p.metrics.offloadedBytes > 0
                ? tr("<br>offloaded to the host %1").arg(formatBytes(p.metrics.offloadedBytes))
                : QString());
}

void ParetoPlot::showLegend(bool show)
{
    m_plot->legend->setVisible(show);
    // A hidden legend still sizes its column: out of the layout, the empty plot gets the width.
    const bool placed = m_legendColumn->hasElement(0, 0);
    if (show && !placed)
        m_legendColumn->addElement(0, 0, m_plot->legend);
    else if (!show && placed)
        m_legendColumn->take(m_plot->legend);
}

QString ParetoPlot::dominanceText(int index) const
{
    const auto& points = m_snapshot->result.points;
    const ParetoPoint& p = points[static_cast<std::size_t>(index)];
    // Each series has its own frontier: a plan can keep too many activations yet peak the lowest.
    auto dominatedInPeak = [&] {
        if (!p.metrics.peakBytes)
            return false;
        return std::any_of(points.begin(), points.end(), [&](const ParetoPoint& q) {
            if (!q.metrics.peakBytes)
                return false;
            const auto qp = *q.metrics.peakBytes, pp = *p.metrics.peakBytes;
            const double qr = q.metrics.estimatedRuntime, pr = p.metrics.estimatedRuntime;
            return qp <= pp && qr <= pr && (qp < pp || qr < pr);
        });
    };
    QStringList lines;
    if (m_series != Series::Peak && !p.onFrontier)
        lines << tr("activations: dominated (another plan keeps less and recomputes less)");
    if (m_series != Series::Activations && dominatedInPeak())
        lines << tr("peak: dominated (another plan peaks lower and recomputes less)");
    if (lines.isEmpty())
        return tr("<br><i>on the frontier</i>");
    return QStringLiteral("<br><i>%1</i>").arg(lines.join(QStringLiteral("<br>")));
}

void ParetoPlot::onMouseMove(QMouseEvent* event)
{
    const QPoint position = event->position().toPoint();
    const int index = pointAt(position);
    if (m_dragging && index >= 0) {
        Q_EMIT budgetPicked(m_snapshot->result.points[static_cast<std::size_t>(index)].budget);
        return;
    }
    const QString text = toolTipAt(position);
    if (text.isEmpty()) {
        QToolTip::hideText();
        return;
    }
    QToolTip::showText(m_plot->mapToGlobal(position), text, m_plot);
}

void ParetoPlot::onMousePress(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton)
        return;
    const int index = pointAt(event->position().toPoint());
    if (index < 0)
        return;
    m_dragging = true; // dragging along the curve keeps picking the nearest plan
    Q_EMIT budgetPicked(m_snapshot->result.points[static_cast<std::size_t>(index)].budget);
}

} // namespace remat::ui
