// SPDX-License-Identifier: MIT
#include "window/gui_stall_probe.h"

#include <algorithm>
#include <cstdio>
#include <ctime>

#ifdef Q_OS_LINUX
#include <fcntl.h>
#include <unistd.h>
#endif

namespace remat::ui {

GuiStallProbe::GuiStallProbe(QObject* parent)
    : QObject(parent)
{
    // 1 ms, precise: a stall is measured to about a millisecond, at a cost of a thousand cheap
    // wake-ups a second while a phase runs.
    m_timer.setTimerType(Qt::PreciseTimer);
    m_timer.setInterval(1);
    connect(&m_timer, &QTimer::timeout, this, &GuiStallProbe::tick);
    m_clock.start();
#ifdef Q_OS_LINUX
    // Resolved now, on the thread that owns the probe: the GUI thread.
    m_schedstat = ::open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
#endif
}

GuiStallProbe::~GuiStallProbe()
{
#ifdef Q_OS_LINUX
    if (m_schedstat >= 0)
        ::close(m_schedstat);
#endif
}

void GuiStallProbe::beginPhase(const QString& name)
{
    endPhase();
    m_phases.push_back(Phase {name, {}, 0, 0});
    m_phaseStartNs = m_lastNs = m_clock.nsecsElapsed();
    m_last = threadTimes();
    m_timer.start();
}

void GuiStallProbe::endPhase()
{
    if (!m_timer.isActive())
        return;
    tick(); // the stretch since the last tick counts too
    m_timer.stop();
}

void GuiStallProbe::tick()
{
    const qint64 now = m_clock.nsecsElapsed();
    const ThreadTimes times = threadTimes();
    Stall stall;
    stall.wallMs = static_cast<double>(now - m_lastNs) * 1e-6;
    stall.waitingMs = std::clamp(times.waitingMs - m_last.waitingMs, 0.0, stall.wallMs);
    stall.runningMs = std::clamp(times.runningMs - m_last.runningMs, 0.0, stall.wallMs - stall.waitingMs);
    stall.atMs = static_cast<double>(now - m_phaseStartNs) * 1e-6;
    m_lastNs = now;
    m_last = times;
    Phase& phase = m_phases.back();
    ++phase.ticks;
    if (stall.busyMs() > phase.worst.busyMs())
        phase.worst = stall;
    phase.longestWallMs = std::max(phase.longestWallMs, stall.wallMs);
}

GuiStallProbe::ThreadTimes GuiStallProbe::threadTimes() const
{
    ThreadTimes times;
    // The thread's own CPU clock is exact; schedstat's run time lags while the thread runs.
    timespec cpu {};
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu) == 0)
        times.runningMs = static_cast<double>(cpu.tv_sec) * 1e3 + static_cast<double>(cpu.tv_nsec) * 1e-6;
#ifdef Q_OS_LINUX
    // "<ns on a CPU> <ns waiting on a run queue> <time slices>"; the wait is brought up to date
    // whenever the thread gets a CPU, so it is current while the thread reads it.
    char text[96] = {};
    unsigned long long running = 0;
    unsigned long long waiting = 0;
    if (m_schedstat >= 0 && ::pread(m_schedstat, text, sizeof text - 1, 0) > 0
        && std::sscanf(text, "%llu %llu", &running, &waiting) == 2)
        times.waitingMs = static_cast<double>(waiting) * 1e-6;
#endif
    return times;
}

QString GuiStallProbe::describe(const Phase& phase)
{
    const Stall& w = phase.worst;
    return QStringLiteral(
        "%1: longest GUI-thread stall %2 ms busy (%3 ms by the clock: %4 ms running, %5 ms blocked, "
        "%6 ms waiting for a CPU; %7 ms into the phase); longest by the clock %8 ms; %9 ticks")
        .arg(phase.name)
        .arg(w.busyMs(), 0, 'f', 1)
        .arg(w.wallMs, 0, 'f', 1)
        .arg(w.runningMs, 0, 'f', 1)
        .arg(w.busyMs() - w.runningMs, 0, 'f', 1)
        .arg(w.waitingMs, 0, 'f', 1)
        .arg(w.atMs, 0, 'f', 0)
        .arg(phase.longestWallMs, 0, 'f', 1)
        .arg(phase.ticks);
}

} // namespace remat::ui
