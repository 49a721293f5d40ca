// SPDX-License-Identifier: MIT
#include "window/gui_stall_probe.h"

#include "window/cpu_steal_time.h"

#include <QDir>
#include <QFile>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <optional>

#ifdef Q_OS_LINUX
#include <fcntl.h>
#include <sched.h>
#include <unistd.h>
#endif

namespace remat::ui {
namespace {

/// The calling thread's CPU time: exact, where schedstat's lags while the thread runs.
double threadCpuMs()
{
    timespec cpu {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu);
    return static_cast<double>(cpu.tv_sec) * 1e3 + static_cast<double>(cpu.tv_nsec) * 1e-6;
}

/// A thread's total run-queue delay from its open schedstat ("<ns on a CPU> <ns waiting on a run
/// queue> <slices>"), brought up to date each time the thread gets a CPU; nullopt if unreadable.
std::optional<double> runQueueMs([[maybe_unused]] int schedstat)
{
#ifdef Q_OS_LINUX
    char text[96] = {};
    unsigned long long running = 0;
    unsigned long long waiting = 0;
    if (schedstat >= 0 && ::pread(schedstat, text, sizeof text - 1, 0) > 0
        && std::sscanf(text, "%llu %llu", &running, &waiting) == 2)
        return static_cast<double>(waiting) * 1e-6;
#endif
    return std::nullopt;
}

/// A CPU's steal time from the open /proc/stat; nullopt if unreadable or not listed.
std::optional<double> stealMs(
    [[maybe_unused]] int procStat, [[maybe_unused]] int cpu, [[maybe_unused]] std::vector<char>& buffer)
{
#ifdef Q_OS_LINUX
    if (procStat < 0 || cpu < 0)
        return std::nullopt;
    buffer.resize(std::size_t {1} << 16); // the cpu lines come first
    char* text = buffer.data();
    const ssize_t got = ::pread(procStat, text, buffer.size() - 1, 0);
    if (got <= 0)
        return std::nullopt;
    text[got] = '\0';
    const std::optional<unsigned long long> ticks = stealTicks(text, cpu);
    if (!ticks)
        return std::nullopt;
    static const double msPerTick = 1e3 / static_cast<double>(::sysconf(_SC_CLK_TCK));
    return static_cast<double>(*ticks) * msPerTick;
#else
    return std::nullopt;
#endif
}

#ifdef Q_OS_LINUX
int openSchedstat(int tid)
{
    return ::open(QStringLiteral("/proc/self/task/%1/schedstat").arg(tid).toLocal8Bit().constData(),
        O_RDONLY | O_CLOEXEC);
}

/// A thread's nice value (field 19 of its stat, after the name, which may hold spaces).
std::optional<int> niceOf(int tid)
{
    QFile file(QStringLiteral("/proc/self/task/%1/stat").arg(tid));
    if (!file.open(QIODevice::ReadOnly))
        return std::nullopt;
    const QByteArray stat = file.readAll();
    const QList<QByteArray> fields = stat.mid(stat.lastIndexOf(')') + 2).split(' ');
    constexpr int kNice = 19 - 3; // the fields after the name start at the third
    bool ok = false;
    const int nice = fields.size() > kNice ? fields[kNice].toInt(&ok) : 0;
    return ok ? std::optional(nice) : std::nullopt;
}
#endif

} // namespace

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
    m_tid = static_cast<int>(gettid()); // the thread that owns the probe: the GUI thread
    m_schedstat = openSchedstat(m_tid);
    m_procStat = ::open("/proc/stat", O_RDONLY | O_CLOEXEC);
#endif
}

GuiStallProbe::~GuiStallProbe()
{
    closeHelpers();
#ifdef Q_OS_LINUX
    if (m_schedstat >= 0)
        ::close(m_schedstat);
    if (m_procStat >= 0)
        ::close(m_procStat);
#endif
}

void GuiStallProbe::beginPhase(const QString& name)
{
    endPhase();
    m_phases.push_back(Phase {name, {}, 0, 0});
    findHelpers();
    helpersWaitedMs();
    stolenSinceLastMs();
    m_phaseStartNs = m_lastNs = m_clock.nsecsElapsed();
    m_lastRunningMs = threadCpuMs();
    m_lastWaitingMs = runQueueMs(m_schedstat).value_or(0);
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
    const double running = threadCpuMs();
    const double waiting = runQueueMs(m_schedstat).value_or(0);
    Stall stall;
    stall.wallMs = static_cast<double>(now - m_lastNs) * 1e-6;
    stall.runningMs = std::clamp(running - m_lastRunningMs, 0.0, stall.wallMs);
    stall.waitingMs = std::clamp(waiting - m_lastWaitingMs, 0.0, stall.wallMs - stall.runningMs);
    stall.helpersWaitingMs = std::clamp(helpersWaitedMs(), 0.0, stall.blockedMs());
    stall.stolenMs = std::clamp(stolenSinceLastMs(), 0.0, stall.blockedMs() - stall.helpersWaitingMs);
    stall.atMs = static_cast<double>(now - m_phaseStartNs) * 1e-6;
    m_lastNs = now;
    m_lastRunningMs = running;
    m_lastWaitingMs = waiting;
    Phase& phase = m_phases.back();
    ++phase.ticks;
    if (stall.busyMs() > phase.worst.busyMs())
        phase.worst = stall;
    phase.longestWallMs = std::max(phase.longestWallMs, stall.wallMs);
    constexpr int kScanEvery = 250; // ticks: a pool starts its threads when first needed
    if (++m_ticksSinceScan >= kScanEvery)
        findHelpers();
}

void GuiStallProbe::findHelpers()
{
    m_ticksSinceScan = 0;
#ifdef Q_OS_LINUX
    const std::optional<int> ownNice = niceOf(m_tid);
    if (!ownNice)
        return;
    std::vector<Helper> found;
    for (const QString& entry :
        QDir(QStringLiteral("/proc/self/task")).entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        const int tid = entry.toInt();
        const std::optional<int> nice = tid == m_tid ? std::nullopt : niceOf(tid);
        if (!nice || *nice > *ownNice)
            continue;
        auto known = std::find_if(
            m_helpers.begin(), m_helpers.end(), [tid](const Helper& h) { return h.tid == tid; });
        if (known != m_helpers.end()) {
            found.push_back(*known);
            known->schedstat = -1; // moved
            continue;
        }
        Helper helper {tid, openSchedstat(tid), 0};
        helper.waitingMs = runQueueMs(helper.schedstat).value_or(0); // only what it waits from now on
        if (helper.schedstat >= 0)
            found.push_back(helper);
    }
    closeHelpers();
    m_helpers = std::move(found);
#endif
}

double GuiStallProbe::helpersWaitedMs()
{
    double waited = 0;
    for (Helper& helper : m_helpers) {
        if (const std::optional<double> now = runQueueMs(helper.schedstat)) {
            waited += *now - helper.waitingMs;
            helper.waitingMs = *now;
        }
    }
    return waited;
}

double GuiStallProbe::stolenSinceLastMs()
{
#ifdef Q_OS_LINUX
    const int cpu = ::sched_getcpu();
#else
    const int cpu = -1;
#endif
    const std::optional<double> steal = stealMs(m_procStat, cpu, m_procStatText);
    // A thread that moved may have been stolen from on either CPU, or on neither: no excuse then.
    const double stolen = steal && m_lastStealMs && cpu == m_lastCpu ? *steal - *m_lastStealMs : 0;
    m_lastCpu = cpu;
    m_lastStealMs = steal;
    return stolen;
}

void GuiStallProbe::closeHelpers()
{
#ifdef Q_OS_LINUX
    for (const Helper& helper : m_helpers) {
        if (helper.schedstat >= 0)
            ::close(helper.schedstat);
    }
#endif
    m_helpers.clear();
}

QString GuiStallProbe::describe(const Phase& phase)
{
    const Stall& w = phase.worst;
    return QStringLiteral(
        "%1: longest GUI-thread stall %2 ms busy (%3 ms by the clock: %4 ms running, %5 ms blocked of "
        "which %6 ms while its helper threads waited for a CPU and %7 ms stolen by the host, %8 ms "
        "waiting for a CPU; %9 ms into the phase); longest by the clock %10 ms; %11 ticks")
        .arg(phase.name)
        .arg(w.busyMs(), 0, 'f', 1)
        .arg(w.wallMs, 0, 'f', 1)
        .arg(w.runningMs, 0, 'f', 1)
        .arg(w.blockedMs(), 0, 'f', 1)
        .arg(w.helpersWaitingMs, 0, 'f', 1)
        .arg(w.stolenMs, 0, 'f', 1)
        .arg(w.waitingMs, 0, 'f', 1)
        .arg(w.atMs, 0, 'f', 0)
        .arg(phase.longestWallMs, 0, 'f', 1)
        .arg(phase.ticks);
}

} // namespace remat::ui
