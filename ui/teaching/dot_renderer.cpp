// SPDX-License-Identifier: MIT
#include "teaching/dot_renderer.h"

#include <QStandardPaths>

namespace remat::ui {

DotRenderer::DotRenderer(QObject* parent)
    : QObject(parent)
{ }

DotRenderer::~DotRenderer()
{
    stop();
}

void DotRenderer::stop()
{
    if (!m_process)
        return;
    m_process->disconnect(this);
    m_process->kill();
    m_process->waitForFinished(1000);
    m_process->deleteLater();
    m_process = nullptr;
}

void DotRenderer::render(int key, const QString& dot)
{
    stop();
    const QString program = QStandardPaths::findExecutable(QStringLiteral("dot"));
    if (program.isEmpty()) {
        Q_EMIT failed(key, tr("Graphviz's 'dot' program was not found on PATH (Debian package graphviz)"));
        return;
    }
    auto* process = new QProcess(this);
    m_process = process;
    connect(process, &QProcess::finished, this, [this, process, key](int code, QProcess::ExitStatus status) {
        if (process != m_process)
            return;
        m_process = nullptr;
        process->deleteLater();
        if (status != QProcess::NormalExit || code != 0) {
            Q_EMIT failed(
                key, tr("dot failed: %1").arg(QString::fromUtf8(process->readAllStandardError()).trimmed()));
            return;
        }
        Q_EMIT rendered(key, process->readAllStandardOutput());
    });
    connect(process, &QProcess::errorOccurred, this, [this, process, key](QProcess::ProcessError error) {
        if (process != m_process || error != QProcess::FailedToStart)
            return;
        m_process = nullptr;
        process->deleteLater();
        Q_EMIT failed(key, tr("cannot start dot: %1").arg(process->errorString()));
    });
    process->start(program, {QStringLiteral("-Tsvg")});
    process->write(dot.toUtf8());
    process->closeWriteChannel();
}

} // namespace remat::ui
