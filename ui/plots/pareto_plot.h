// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/pareto_sweeper.h"

#include <QVector>
#include <QWidget>

#include <optional>
#include <vector>

class QCPGraph;
class QCPItemText;
class QCPLayoutGrid;
class QCPTextElement;
class QCustomPlot;
class QMouseEvent;

namespace remat::ui {

/// The budgets a swept plan holds at, as `pareto` lists them: "budgets 0.25 to 0.4", or
/// "budget 0.3" when it holds at one, or at a range that prints as one number.
QString budgetsOfPlan(const ParetoPoint& point);

/// Memory against estimated recompute runtime, one point per plan of a budget sweep: activation
/// bytes (what PyTorch's knapsack limits), simulated peak (what the GPU sees), or both. Pareto
/// frontiers are step lines, dominated plans faint; the lowest-peak plan, the current plan and
/// PyTorch's recorded budget plans are marked. Hover explains a point; a click picks its budget.
class ParetoPlot : public QWidget {
    Q_OBJECT
public:
    enum class Series { Activations, Peak, Both };

    explicit ParetoPlot(QWidget* parent = nullptr);

    void setSnapshot(ParetoSnapshotPtr snapshot);
    void setSeries(Series series);
    Series series() const { return m_series; }
    /// The plan on the canvas (its budget picks its point), or none.
    void setCurrentBudget(std::optional<double> budget);
    /// A line above the plot (the graph and the estimator), so that an exported picture says what it is.
    void setTitle(const QString& title);
    void clear();

    QCustomPlot* plot() const { return m_plot; }
    ParetoSnapshotPtr snapshot() const { return m_snapshot; }
    /// The index of the sweep point holding `budget`, or -1.
    int pointForBudget(double budget) const;
    /// The plan with the lowest simulated peak, or -1; among peaks within 0.5 % of the lowest, the
    /// one that recomputes least (a star on a dominated point would mislead).
    int lowestPeakPoint() const;
    /// The point under a widget position (within a few pixels), or -1: what a click would pick. On
    /// PyTorch's recorded plan, the sweep's plan at its budget.
    int pointAt(const QPoint& position) const;
    /// Where a point's activation (or peak) marker is drawn, in the plot widget's pixels.
    QPointF pixelOf(int index, bool peak) const;
    /// Text the tooltip shows for a point.
    QString describePoint(int index) const;
    /// PyTorch's recorded plans (indexes into the snapshot's `recorded`) drawn within a few pixels.
    std::vector<int> recordedAt(const QPoint& position) const;
    /// Where a recorded plan's cross is drawn on the activation (or peak) series, in the plot
    /// widget's pixels.
    QPointF recordedPixel(int index, bool peak) const;
    /// What hovering there shows: the sweep's point, PyTorch's recorded plans there, or both.
    QString toolTipAt(const QPoint& position) const;

Q_SIGNALS:
    /// A point was clicked: switch to the plan that budget gives.
    void budgetPicked(double budget);

private:
    void rebuild();
    /// Moves the current plan's ring to `m_currentBudget`'s point and redraws only its layer;
    /// false when the ring must appear or go (the legend changes), which needs a rebuild.
    bool moveCurrentMarker();
    /// The ring's positions for `point`: one per series shown.
    void currentMarkerData(int point, QVector<double>& x, QVector<double>& y) const;
    void onMouseMove(QMouseEvent* event);
    void onMousePress(QMouseEvent* event);
    double xOf(int index, bool peak) const;
    /// Whether the peak (or activation) series is on the plot.
    bool showsSeries(bool peak) const;
    double recordedX(const ParetoSnapshot::Recorded& plan, bool peak) const;
    /// Whether a point is on the frontier of each series shown (tooltip line).
    QString dominanceText(int index) const;
    /// Shows the legend in its column right of the plot, or takes both away when nothing is plotted.
    void showLegend(bool show);

    QCustomPlot* m_plot;
    QCPTextElement* m_title = nullptr;
    QCPLayoutGrid* m_legendColumn = nullptr;
    ParetoSnapshotPtr m_snapshot;
    std::vector<QCPItemText*> m_pointLabels; ///< owned by the plot; placed at each layout
    Series m_series = Series::Both;
    std::optional<double> m_currentBudget;
    QCPGraph* m_currentMarker = nullptr; ///< owned by the plot; on a buffered layer of its own
    double m_xScale = 1;
    double m_yScale = 1;
    bool m_dragging = false;
};

} // namespace remat::ui
