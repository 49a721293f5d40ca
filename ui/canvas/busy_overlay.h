// SPDX-License-Identifier: MIT
#pragma once

#include <QElapsedTimer>
#include <QWidget>

class QLabel;
class QProgressBar;
class QPushButton;

namespace remat::ui {

/// A panel over the canvas while a graph opens or a layout runs: what is happening, a progress
/// bar (a spinner until there is a fraction to show), the time spent, and Cancel.
class BusyOverlay : public QWidget {
    Q_OBJECT
public:
    explicit BusyOverlay(QWidget* parent = nullptr);

    void start(const QString& title);
    /// `permille` < 0: no fraction known (spinner).
    void setStage(const QString& stage, int permille);
    void finish();

Q_SIGNALS:
    void cancelRequested();

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    QLabel* m_title;
    QLabel* m_stage;
    QProgressBar* m_bar;
    QPushButton* m_cancel;
    QElapsedTimer m_clock;
};

} // namespace remat::ui
