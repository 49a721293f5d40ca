// SPDX-License-Identifier: MIT
#pragma once

#include "graph/arg.h"
#include "window/command_line.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <deque>
#include <functional>
#include <memory>

namespace remat::ui {

class MainWindow;

/// Drives the main window without a user, for --screenshot, --measure and --export-*: a queue of
/// steps, each started once the window is idle (nothing opening, laying out or partitioning).
class HeadlessSession : public QObject {
    Q_OBJECT
public:
    HeadlessSession(MainWindow* window, GuiOptions options, QObject* parent = nullptr);
    void start();

Q_SIGNALS:
    void finished(int exitCode);

private:
    using Step = std::function<void()>;
    void then(Step step) { m_steps.push_back(std::move(step)); }
    /// Runs the next step once the window is idle.
    void next();
    void fail(const QString& message);
    void queueScreenshotSteps();
    /// --expand: every group, or the one with that label (and the groups around it).
    void expandAsAsked();
    void applyPartitionerOptions();
    void showPlanFile();
    /// --dock, --compare, --step and --teach (headless_review_steps.cpp).
    void queueReviewSteps();
    /// The teaching window when --teach asked for it: the screenshot is of it, not of the main window.
    QWidget* m_shotWidget = nullptr;
    void queueExportSteps();
    void queueMeasureSteps();
    void openAndMeasure(const QString& label);
    /// --measure --expand: the time until the expanded picture is drawn.
    void measureExpand();
    /// Once: when the next picture is on the canvas, paints it and stores the ms since `start` in `shown`.
    void timeNextPicture(std::shared_ptr<QElapsedTimer> start, std::shared_ptr<double> shown);
    void measureTags(NodeId node);
    /// Peak RSS so far, and per node of the open graph (a line of --measure).
    void printPeakMemory(std::size_t nodes);
    /// The what-if of saved nodes, the budget sweep, and clicks on its points
    /// (headless_measure_pictures.cpp).
    void measurePictures(NodeId node);

    MainWindow* m_window;
    GuiOptions m_options;
    std::deque<Step> m_steps;
    QTimer m_poll;
    QTimer m_deadline;
    QElapsedTimer m_clock;
    bool m_failed = false;
};

} // namespace remat::ui
