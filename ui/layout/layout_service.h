// SPDX-License-Identifier: MIT
#pragma once

#include "canvas/canvas_builder.h"
#include "layout/layout_cache.h"

#include <QObject>
#include <QThreadPool>

#include <atomic>
#include <memory>

namespace remat::ui {

/// Timings of one picture, for the status bar and --measure.
struct CanvasTimings {
    double viewSeconds = 0; ///< which boxes and edges to show
    double layoutSeconds = 0; ///< Graphviz (0 when the layout came from the cache)
    double buildSeconds = 0; ///< creating the graphics items
    bool cached = false;
    QString engine;
    QString note; ///< e.g. why a layout cache file was ignored; empty when there is nothing to say
};

/// Turns "this graph with these groups expanded" into a finished picture, off the GUI thread:
/// view graph, cached or fresh Graphviz layout, then the graphics items. One job at a time on
/// its own thread; Graphviz runs in a layout worker child (layout_worker.h) that a newer
/// request, cancel() or the destructor kills at once. Stale results are dropped.
class LayoutService : public QObject {
    Q_OBJECT
public:
    explicit LayoutService(QObject* parent = nullptr);
    ~LayoutService() override;

    void setCacheDirectory(const QString& directory);
    /// Starts a layout; returns its ticket.
    quint64 request(LoadedGraphPtr graph, std::vector<char> expanded, const CanvasState* state);
    /// Drops whatever is running or queued; a Graphviz child is killed.
    void cancel();
    bool isBusy() const { return m_running > 0; }
    /// Big grouped pictures are laid out group by group, each shape once (on by default); off,
    /// they go to Graphviz whole, as before (for comparisons and tests of long layouts).
    void setComposeBlocks(bool compose) { m_composeBlocks = compose; }

Q_SIGNALS:
    void stageChanged(quint64 ticket, const QString& stage);
    void contentReady(
        quint64 ticket, std::shared_ptr<remat::ui::CanvasContent> content, remat::ui::CanvasTimings timings);
    void failed(quint64 ticket, const QString& message);

private:
    QThreadPool m_pool;
    std::shared_ptr<LayoutCache> m_cache;
    std::shared_ptr<std::atomic<quint64>> m_latest;
    int m_running = 0;
    bool m_composeBlocks = true;
};

} // namespace remat::ui

Q_DECLARE_METATYPE(std::shared_ptr<remat::ui::CanvasContent>)
Q_DECLARE_METATYPE(remat::ui::CanvasTimings)
