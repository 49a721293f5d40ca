// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/plan_profiler.h"

#include <QWidget>

class QCPGraph;
class QCPTextElement;
class QCustomPlot;
class QCPItemStraightLine;
class QCPItemText;
class QMouseEvent;

namespace remat::ui {

/// Live bytes over the execution steps of a plan (the forward, then the backward in autograd's
/// order), stacked by category, with the peak and the forward/backward boundary marked and,
/// optionally, a second plan's total as a line. Hover names the node running at a step; a click
/// picks the step.
class TimelinePlot : public QWidget {
    Q_OBJECT
public:
    explicit TimelinePlot(QWidget* parent = nullptr);

    /// `graph` names the nodes (only read while set).
    void setProfile(std::shared_ptr<const JointGraph> graph, PlanProfilePtr profile);
    /// Another plan's total, drawn over the stack (null: none).
    void setComparison(PlanProfilePtr profile);
    void setSelectedStep(int step);
    /// A line above the plot (the graph and the plan), so that an exported picture says what it is.
    void setTitle(const QString& title);
    void clear();

    QCustomPlot* plot() const { return m_plot; }
    PlanProfilePtr profile() const { return m_profile; }
    /// The step under a widget x position, or -1.
    int stepAt(const QPoint& position) const;
    QString describeStep(int step) const;

Q_SIGNALS:
    void stepClicked(int step);

private:
    void rebuild();
    /// One category's stacked area, styled and named for the legend, without data.
    QCPGraph* addCategoryGraph(MemoryCategory category);
    void onMouseMove(QMouseEvent* event);
    /// Once laid out: wraps the legend for the plot's width, spaces the y axis's ticks for its
    /// height, and raises the y range's top so that the peak's label fits under the "forward ◂ /
    /// ▸ backward" labels (in a short dock the usual 15% headroom is less than the two lines of
    /// text, and the peak mostly comes right after the boundary, where both hang).
    void fitToSize();

    QCustomPlot* m_plot;
    QCPTextElement* m_title = nullptr;
    std::shared_ptr<const JointGraph> m_graph;
    PlanProfilePtr m_profile;
    PlanProfilePtr m_comparison;
    QCPItemStraightLine* m_selectedLine = nullptr;
    QCPItemText* m_forwardLabel = nullptr;
    QCPItemText* m_peakLabel = nullptr;
    double m_largestValue = 0; ///< the highest total drawn, in the y axis's unit
    double m_peakValue = 0;
    int m_selectedStep = -1;
    double m_yScale = 1;
    QPoint m_pressPosition;
};

} // namespace remat::ui
