// SPDX-License-Identifier: MIT
#pragma once

#include <QElapsedTimer>
#include <QList>
#include <QObject>
#include <QString>
#include <QTimer>

#include <optional>
#include <vector>

namespace remat::ui {

/// Measures how long the GUI thread stays away from its event loop: a 1 ms timer on the thread
/// notes the time between its ticks, and the longest gap is the longest the window could not
/// react to the user. On Linux each gap is split (schedstat, the thread's CPU clock) into the
/// time the thread ran, waited for a CPU, or was blocked. Waiting for a CPU is the machine's
/// load, and so is the time it was blocked while the threads serving it waited for a CPU: Qt's
/// raster engine hands large fills to its own pool and waits for it. Those serving threads are
/// the process's other threads at the GUI thread's priority (our background work runs lower,
/// see lowerThreadPriority(); the overview map's painter does not, so that the raster pool's
/// threads it starts are not lower either, and its waits may excuse a stretch it overlaps). So is
/// the time a virtual machine's host took the thread's CPU away (steal time, which the thread's
/// CPU clock leaves out, so that it would read as blocked): /proc/stat counts it per CPU in
/// 10 ms units, so a stall's share is known to about 10 ms. The rest, the busy part, is ours:
/// running, or blocked on anything else (a lock, a page from disk).
class GuiStallProbe : public QObject {
    Q_OBJECT
public:
    struct Stall {
        double wallMs = 0; ///< between two returns to the event loop
        double runningMs = 0; ///< of which the thread ran
        double waitingMs = 0; ///< of which it waited for a CPU
        double helpersWaitingMs = 0; ///< of which it was blocked while its helpers waited for a CPU
        double stolenMs = 0; ///< of which the host ran something else on its CPU (steal time)
        double atMs = 0; ///< when the stall ended, from the start of its phase
        double blockedMs() const { return wallMs - runningMs - waitingMs; }
        double busyMs() const { return wallMs - waitingMs - helpersWaitingMs - stolenMs; }
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
    /// Whether waiting for a CPU can be told apart; without it (not Linux) all of a stall is busy.
    bool seesRunQueue() const { return m_schedstat >= 0; }
    /// One line: the phase's longest busy stall and how its time splits, and the longest by the clock.
    static QString describe(const Phase& phase);

private:
    struct Helper {
        int tid = 0;
        int schedstat = -1;
        double waitingMs = 0;
    };
    void tick();
    /// Finds the threads at the GUI thread's priority (a thread pool starts them on demand).
    void findHelpers();
    /// The helpers' run-queue delay since the last call.
    double helpersWaitedMs();
    /// The steal time of the GUI thread's CPU since the last call, if it stayed on that CPU.
    double stolenSinceLastMs();
    void closeHelpers();

    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_phaseStartNs = 0;
    qint64 m_lastNs = 0;
    double m_lastRunningMs = 0;
    double m_lastWaitingMs = 0;
    int m_schedstat = -1; ///< file descriptor of the GUI thread's schedstat
    int m_tid = 0;
    int m_procStat = -1; ///< file descriptor of /proc/stat, for steal time
    int m_lastCpu = -1;
    std::optional<double> m_lastStealMs; ///< of m_lastCpu
    std::vector<char> m_procStatText;
    std::vector<Helper> m_helpers;
    int m_ticksSinceScan = 0;
    QList<Phase> m_phases;
};

} // namespace remat::ui
