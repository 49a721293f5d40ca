// SPDX-License-Identifier: MIT
#pragma once

#include <QElapsedTimer>
#include <QList>
#include <QObject>
#include <QString>
#include <QTimer>

namespace remat::ui {

/// Measures how long the GUI thread stays away from its event loop: a 1 ms timer on the thread
/// notes the time between its ticks, and the longest gap is the longest the window could not
/// react to the user. On Linux the time the thread was ready but waited for a CPU (its run-queue
/// delay, /proc/thread-self/schedstat) is told apart: that is the machine's load; the rest, the
/// busy part, is ours (running, or blocked on a lock, a wait or a page read from disk).
class GuiStallProbe : public QObject {
    Q_OBJECT
public:
    struct Stall {
        double wallMs = 0; ///< between two returns to the event loop
        double waitingMs = 0; ///< of which the thread waited for a CPU
        double runningMs = 0; ///< of which it ran (the rest it was blocked: a lock, a page from disk)
        double atMs = 0; ///< when the stall ended, from the start of its phase
        double busyMs() const { return wallMs - waitingMs; }
    };
    struct Phase {
        QString name;
        Stall worst; ///< the longest busy stall
        double longestWallMs = 0; ///< the longest stall by the clock, load included
        int ticks = 0;
    };

    explicit GuiStallProbe(QObject* parent = nullptr);
    ~GuiStallProbe() override;

    /// Ends the current phase (if any) and starts measuring the next one.
    void beginPhase(const QString& name);
    void endPhase();
    const QList<Phase>& phases() const { return m_phases; }
    /// Whether the run-queue delay is known; without it, waitingMs stays 0 (all of a stall is busy).
    bool seesRunQueue() const { return m_schedstat >= 0; }
    /// One line: the phase's longest busy stall, what of it was waiting, and the longest wall stall.
    static QString describe(const Phase& phase);

private:
    void tick();
    struct ThreadTimes {
        double runningMs = 0;
        double waitingMs = 0;
    };
    /// The thread's time on a CPU and on a run queue so far (0 where unknown).
    ThreadTimes threadTimes() const;

    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_phaseStartNs = 0;
    qint64 m_lastNs = 0;
    ThreadTimes m_last;
    int m_schedstat = -1; ///< file descriptor of this thread's schedstat
    QList<Phase> m_phases;
};

} // namespace remat::ui
