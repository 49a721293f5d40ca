// SPDX-License-Identifier: MIT
#include "layout/layout_service.h"

#include "layout/view_graph.h"
#include "layout/view_layout.h"
#include "model/background_priority.h"
#include "model/thread_handoff.h"

#include <QElapsedTimer>
#include <QLoggingCategory>
#include <QPointer>

namespace remat::ui {
namespace {

Q_LOGGING_CATEGORY(lcLayout, "remat.layout")

double secondsOf(const QElapsedTimer& t)
{
    return static_cast<double>(t.nsecsElapsed()) * 1e-9;
}

struct JobResult {
    std::shared_ptr<CanvasContent> content;
    CanvasTimings timings;
    QString error;
    bool stale = false;
};

} // namespace

LayoutService::LayoutService(QObject* parent)
    : QObject(parent)
    , m_cache(std::make_shared<LayoutCache>())
    , m_latest(std::make_shared<std::atomic<quint64>>(0))
{
    m_pool.setMaxThreadCount(1);
    m_pool.setExpiryTimeout(-1);
}

LayoutService::~LayoutService()
{
    // Whatever still runs or waits is stale: a worker child is killed within a poll (20 ms), so
    // this wait is short; only an in-process Graphviz (no worker program) is waited out.
    m_latest->store(~quint64(0));
    m_pool.waitForDone();
}

void LayoutService::setCacheDirectory(const QString& directory)
{
    m_cache = std::make_shared<LayoutCache>(directory);
    m_cache->prune();
}

quint64 LayoutService::request(LoadedGraphPtr graph, std::vector<char> expanded, const CanvasState* state)
{
    // Older jobs see the new ticket and stop at their next check (queued ones before starting).
    const quint64 ticket = ++*m_latest;
    ++m_running;
    QPointer<LayoutService> self(this);
    auto latest = m_latest;
    auto cache = m_cache;
    auto report = [self, ticket](const QString& stage) {
        queueCall(self, [self, ticket, stage] {
            if (self)
                Q_EMIT self->stageChanged(ticket, stage);
        });
    };

    ViewLayoutOptions options;
    options.workerProgram = layoutWorkerProgram();
    options.composeBlocks = m_composeBlocks;
    auto job = [graph, state, latest, cache, report, ticket, options,
                   expanded = std::move(expanded)]() -> JobResult {
        JobResult out;
        const CancelCheck stale = [latest, ticket] { return latest->load() != ticket; };
        if (stale()) {
            out.stale = true;
            return out;
        }
        try {
            QElapsedTimer timer;
            timer.start();
            auto view = std::make_shared<const ViewGraph>(buildViewGraph(*graph, expanded));
            const LayoutRequest layoutRequest = layoutRequestFor(*graph, *view);
            out.timings.viewSeconds = secondsOf(timer);

            ViewLayoutReport how;
            std::optional<LayoutResult> fresh
                = layoutView(*graph, *view, layoutRequest, *cache, options, stale, report, how);
            out.timings.note = how.note;
            out.timings.cached = how.cached;
            if (!fresh) {
                out.stale = true;
                return out;
            }
            LayoutResult layout = std::move(*fresh);
            if (!how.cached)
                out.timings.layoutSeconds = layout.seconds;
            if (!out.timings.note.isEmpty())
                qCWarning(lcLayout, "%s", qPrintable(out.timings.note));
            out.timings.engine = layout.engine;
            if (stale()) {
                out.stale = true;
                return out;
            }
            report(QStringLiteral("Drawing…"));
            timer.restart();
            out.content = buildCanvas(state, std::move(view), std::move(layout));
            out.timings.buildSeconds = secondsOf(timer);
            if (stale()) {
                out.content.reset(); // freed here: 100k items take the GUI thread 50 ms to free
                out.stale = true;
            }
        } catch (const std::exception& e) {
            out.error = QString::fromUtf8(e.what());
        }
        return out;
    };
    // Back on the GUI thread through a queued call, not a QFuture continuation (see GraphOpener::open).
    startInPool(m_pool, [self, ticket, job = std::move(job)]() mutable {
        lowerThreadPriority();
        JobResult result = job();
        queueCall(self, [self, ticket, result]() mutable {
            if (!self)
                return;
            --self->m_running;
            if (result.stale || ticket != self->m_latest->load()) {
                // Superseded meanwhile: the content (in no scene) is freed on the worker.
                if (result.content)
                    startInPool(
                        self->m_pool, [content = std::move(result.content)]() mutable { content.reset(); });
                return;
            }
            if (!result.error.isEmpty())
                Q_EMIT self->failed(ticket, result.error);
            else
                Q_EMIT self->contentReady(ticket, result.content, result.timings);
        });
    });
    return ticket;
}

void LayoutService::cancel()
{
    ++*m_latest;
}

} // namespace remat::ui
