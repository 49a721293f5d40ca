// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/pareto_sweeper.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QTimer;
class QToolButton;

namespace remat::ui {

class GraphDocument;
class ParetoPlot;

/// The "Budget trade-off" dock: sweeps budgets 0..1 off the GUI thread whenever the memory-budget
/// partitioner is chosen (on demand for the others), and plots every plan's memory against its
/// estimated recompute runtime as the points arrive. Clicking a point switches the canvas and the
/// tables to that plan; the budget slider moves the current-plan marker.
class ParetoPanel : public QWidget {
    Q_OBJECT
public:
    explicit ParetoPanel(GraphDocument* document, QWidget* parent = nullptr);

    ParetoPlot* plot() const { return m_plot; }
    ParetoSweeper* sweeper() const { return m_sweeper; }
    QString statusText() const;
    /// Starts a sweep with the document's graph, tags and budget settings.
    void sweep();
    /// Exports the plot (PNG/SVG/PDF) or the points (CSV) by the file's suffix; returns an error or "".
    QString exportTo(const QString& path);

Q_SIGNALS:
    void exported(const QString& message);

private:
    void onSettingsChanged();
    void onSnapshot(const ParetoSnapshotPtr& snapshot);
    void onStopped(bool cancelled);
    void pickBudget(double budget);
    void showExportMenu();
    void updateCurrent();

    GraphDocument* m_document;
    ParetoSweeper* m_sweeper;
    ParetoPlot* m_plot;
    QComboBox* m_series;
    QPushButton* m_run;
    QProgressBar* m_progress;
    QLabel* m_status;
    QToolButton* m_export;
    QTimer* m_debounce;
    QString m_sweptKey; ///< graph, tags and settings of the latest sweep
    qint64 m_startedMs = 0;
    double m_firstPointsMs = -1;
};

} // namespace remat::ui
