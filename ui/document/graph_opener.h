// SPDX-License-Identifier: MIT
#pragma once

#include "model/loaded_graph.h"

#include <QObject>

#include <atomic>
#include <functional>
#include <memory>

namespace remat::ui {

/// Opens a graph file off the GUI thread: read, parse (the core's JSON or printed-graph
/// reader), then find regions and groups. Reports stages, can be cancelled, and turns the
/// core's errors into a message. Opening again cancels the previous open.
class GraphOpener : public QObject {
    Q_OBJECT
public:
    explicit GraphOpener(QObject* parent = nullptr);
    ~GraphOpener() override;

    /// `path` may be a Qt resource (":/samples/...").
    void open(const QString& path);
    void cancel();
    bool isBusy() const { return m_busy; }

Q_SIGNALS:
    /// `permille` of the way through opening, with what is being done now.
    void progress(const QString& stage, int permille);
    void opened(remat::ui::LoadedGraphPtr graph);
    void failed(const QString& path, const QString& message);
    void cancelled(const QString& path);

private:
    struct OpenResult {
        LoadedGraphPtr graph;
        QString error;
        bool cancelled = false;
    };
    /// Runs on a worker thread.
    static OpenResult load(const QString& path, quint64 ticket, const std::shared_ptr<std::atomic<quint64>>& latest,
                           const std::function<void(const QString&, int)>& report);
    void finish(quint64 ticket, const QString& path, LoadedGraphPtr graph, const QString& error, bool cancelled);

    std::shared_ptr<std::atomic<quint64>> m_latest;
    bool m_busy = false;
};

} // namespace remat::ui
