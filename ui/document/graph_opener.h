// SPDX-License-Identifier: MIT
#pragma once

#include "document/trace_graph_chooser.h"
#include "model/loaded_graph.h"

#include <QObject>

#include <atomic>
#include <functional>
#include <memory>

namespace remat::ui {

/// Opens a graph file off the GUI thread: read, parse (the core's JSON or printed-graph
/// reader, or a TORCH_TRACE log file or folder), then find regions and groups. Reports stages,
/// can be cancelled, and turns the core's errors into a message. Opening again cancels the
/// previous open.
class GraphOpener : public QObject {
    Q_OBJECT
public:
    explicit GraphOpener(QObject* parent = nullptr);
    ~GraphOpener() override;

    /// `path` may be a Qt resource (":/samples/..."). For a TORCH_TRACE log, `traceGraph` is the
    /// compile id to open; without one, a log with several joint graphs asks for a choice.
    void open(const QString& path, const QString& traceGraph = QString());
    void cancel();
    bool isBusy() const { return m_busy; }

Q_SIGNALS:
    /// `permille` of the way through opening, with what is being done now.
    void progress(const QString& stage, int permille);
    void opened(remat::ui::LoadedGraphPtr graph);
    void failed(const QString& path, const QString& message);
    void cancelled(const QString& path);
    /// A TORCH_TRACE log holds several joint graphs: open(path, id) with the one chosen.
    void choiceNeeded(const QString& path, const QList<remat::ui::TracedGraphChoice>& choices);

private:
    struct OpenResult {
        LoadedGraphPtr graph;
        QString error;
        bool cancelled = false;
        QList<TracedGraphChoice> choices;
    };
    /// Runs on a worker thread.
    static OpenResult load(const QString& path, const QString& traceGraph, quint64 ticket,
        const std::shared_ptr<std::atomic<quint64>>& latest,
        const std::function<void(const QString&, int)>& report);
    void finish(quint64 ticket, const QString& path, const OpenResult& result);

    std::shared_ptr<std::atomic<quint64>> m_latest;
    bool m_busy = false;
};

} // namespace remat::ui
