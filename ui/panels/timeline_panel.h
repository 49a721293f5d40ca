// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/plan_profiler.h"

#include <QWidget>

class QLabel;
class QToolButton;
class QTreeView;

namespace remat::ui {

class GraphDocument;
class LiveTensorModel;
class NodeSelection;
class TimelinePlot;

/// The "Memory timeline" dock: the current plan's live memory step by step (re-simulated off the
/// GUI thread after every partition), the tensors alive at its peak or at a clicked step (selected
/// on the canvas too, for a click), and the comparison plan's total as a line.
class TimelinePanel : public QWidget {
    Q_OBJECT
public:
    TimelinePanel(GraphDocument* document, NodeSelection* selection, QWidget* parent = nullptr);

    TimelinePlot* plot() const { return m_plot; }
    QTreeView* liveList() const { return m_live; }
    LiveTensorModel* liveTensors() const { return m_liveTensors; }
    PlanProfiler* profiler() const { return m_profiler; }
    /// Overlays another plan's total (the compare dock's plan B); null clears it.
    void setComparison(PartitionOutcomePtr outcome, const QString& label);
    /// Lists the tensors alive at `step` and selects them on the canvas.
    void showStep(int step);
    /// Exports the plot (PNG/SVG/PDF) or the steps (CSV) by suffix; returns an error or "".
    QString exportTo(const QString& path);

Q_SIGNALS:
    void exported(const QString& message);

private:
    void onPartitionChanged();
    void onProfiled(int slot, const PlanProfilePtr& profile);
    void onLiveAt(int step, const std::vector<LiveTensor>& tensors);

    GraphDocument* m_document;
    NodeSelection* m_selection;
    PlanProfiler* m_profiler;
    TimelinePlot* m_plot;
    QLabel* m_summary;
    LiveTensorModel* m_liveTensors;
    QTreeView* m_live;
    QToolButton* m_export;
    /// The step the list is to show: the peak once a plan is simulated, then the step clicked.
    /// An answer for any other step is stale.
    int m_listedStep = -1;
    bool m_listedIsPeak = false;
};

} // namespace remat::ui
