// SPDX-License-Identifier: MIT
#pragma once

#include <QObject>
#include <QProcess>

namespace remat::ui {

/// Renders Graphviz DOT to SVG with Graphviz's own `dot` in a child process: it runs beside the
/// GUI thread, a newer request kills the older one, and nothing of Graphviz runs in our process.
class DotRenderer : public QObject {
    Q_OBJECT
public:
    explicit DotRenderer(QObject* parent = nullptr);
    ~DotRenderer() override;

    void render(int key, const QString& dot);
    bool isBusy() const { return m_process != nullptr; }

Q_SIGNALS:
    void rendered(int key, const QByteArray& svg);
    void failed(int key, const QString& message);

private:
    void stop();

    QProcess* m_process = nullptr;
};

} // namespace remat::ui
