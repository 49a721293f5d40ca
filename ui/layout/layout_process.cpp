// SPDX-License-Identifier: MIT
#include "layout/layout_process.h"

#include "layout/layout_check.h"
#include "layout/layout_worker.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QProcess>

#include <memory>
#include <stdexcept>

namespace remat::ui {
namespace {

// How long one child is waited on before the next is looked at and `cancelled` polled again:
// short enough that Cancel feels immediate, long enough not to spin.
constexpr int kPollMs = 20;
constexpr qint64 kTickMs = 500;

struct Child {
    std::unique_ptr<QProcess> process;
    std::size_t index = 0;
};

std::runtime_error failure(const QString& what)
{
    return std::runtime_error(what.toStdString());
}

LayoutResult resultOf(Child& child, const LayoutRequest& request, const QString& program)
{
    QProcess& p = *child.process;
    if (p.error() == QProcess::FailedToStart)
        throw failure(
            QStringLiteral("Could not start the layout worker %1: %2").arg(program, p.errorString()));
    if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        const QString reason = QString::fromLocal8Bit(p.readAllStandardError()).trimmed();
        throw failure(QStringLiteral("The layout worker failed (%1)")
                          .arg(reason.isEmpty() ? QStringLiteral("exit %1").arg(p.exitCode()) : reason));
    }
    LayoutResult layout;
    QString error;
    if (!LayoutResult::deserialize(p.readAllStandardOutput(), layout, &error))
        throw failure(QStringLiteral("The layout worker's answer is damaged: %1").arg(error));
    if (const QString mismatch = layoutMismatch(request, layout); !mismatch.isEmpty())
        throw failure(QStringLiteral("The layout worker's answer does not fit the graph: %1").arg(mismatch));
    return layout;
}

} // namespace

QString layoutWorkerProgram()
{
    if (const QString program = qEnvironmentVariable("REMAT_LAYOUT_WORKER"); !program.isEmpty())
        return program;
    if (servesLayoutWorker() && QCoreApplication::instance())
        return QCoreApplication::applicationFilePath();
    return {};
}

std::optional<std::vector<LayoutResult>> layoutInChildren(const QString& program,
    const std::vector<LayoutRequest>& requests, int parallel, const CancelCheck& cancelled,
    const ProgressTick& tick)
{
    std::vector<LayoutResult> results(requests.size());
    std::vector<Child> running; // killed and reaped by ~QProcess if we leave early
    std::size_t next = 0;
    std::size_t done = 0;
    QElapsedTimer clock;
    clock.start();
    qint64 lastTick = 0;
    while (done < requests.size()) {
        while (next < requests.size() && static_cast<int>(running.size()) < std::max(parallel, 1)) {
            Child child {std::make_unique<QProcess>(), next};
            child.process->start(program, {QString::fromLatin1(kLayoutWorkerSwitch)});
            child.process->write(requests[next].serialize());
            child.process->closeWriteChannel();
            running.push_back(std::move(child));
            ++next;
        }
        for (std::size_t i = 0; i < running.size();) {
            QProcess& p = *running[i].process;
            if (p.state() != QProcess::NotRunning && !p.waitForFinished(kPollMs)
                && p.state() != QProcess::NotRunning) {
                ++i;
                continue;
            }
            results[running[i].index] = resultOf(running[i], requests[running[i].index], program);
            running.erase(running.begin() + static_cast<std::ptrdiff_t>(i));
            ++done;
        }
        if (cancelled && cancelled()) {
            for (Child& child : running) {
                child.process->kill();
                child.process->waitForFinished(1000);
            }
            return std::nullopt;
        }
        if (tick && clock.elapsed() - lastTick >= kTickMs) {
            lastTick = clock.elapsed();
            tick(static_cast<double>(lastTick) / 1000.0, done);
        }
    }
    return results;
}

} // namespace remat::ui
