// SPDX-License-Identifier: MIT
#include "document/graph_opener.h"

#include "graph/error.h"
#include "install/data_dir.h"
#include "io/compiled_graph_listing.h"
#include "io/graph_loader.h"
#include "io/torch_trace.h"
#include "model/background_pool.h"
#include "model/background_priority.h"
#include "model/thread_handoff.h"

#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QPointer>
#include <QThreadPool>

namespace remat::ui {
namespace {

/// Reads the file; QFile also serves the bundled sample from the resources.
QByteArray readAll(const QString& path)
{
    const QFileInfo info(path);
    if (!info.exists())
        throw Error(path.toStdString() + ": no such file");
    if (info.isDir())
        throw Error(path.toStdString() + ": is a folder, not a graph file");
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        throw Error(path.toStdString() + ": cannot read: " + file.errorString().toStdString());
    return file.readAll();
}

/// The path the core records as the graph's file, for its messages and for a plan script, which
/// rebuilds the model relative to the graph's folder: absolute for a file on disk; for the
/// bundled sample, its installed copy in the data dir's samples/ when that is there.
std::string corePath(const QString& path)
{
    if (path.startsWith(QLatin1String(":/"))) {
        const QString original = QString::fromStdString((dataDir() / path.mid(2).toStdString()).string());
        return (QFileInfo::exists(original) ? original : QFileInfo(path).fileName()).toStdString();
    }
    return QFileInfo(path).absoluteFilePath().toStdString();
}

/// The joint graphs of a TORCH_TRACE log or TORCH_LOGS capture to choose from; empty when there
/// is at most one.
QList<TracedGraphChoice> tracedGraphChoices(const trace::TraceListing& listing)
{
    QList<TracedGraphChoice> choices;
    for (const auto& g : listing.graphs) {
        if (!g.joint)
            continue;
        const QString id = QString::fromStdString(g.id);
        QString label = g.problem.empty()
            ? QObject::tr("%1 — %2 nodes").arg(id).arg(g.nodes)
            : QObject::tr("%1 — unreadable: %2").arg(id, QString::fromStdString(g.problem));
        if (g.partitioned)
            label += QObject::tr(", PyTorch's decision recorded");
        choices.push_back({id, label});
    }
    if (choices.size() < 2)
        choices.clear();
    return choices;
}

} // namespace

GraphOpener::GraphOpener(QObject* parent)
    : QObject(parent)
    , m_latest(std::make_shared<std::atomic<quint64>>(0))
{ }

GraphOpener::~GraphOpener()
{
    m_latest->store(~quint64(0));
}

void GraphOpener::open(const QString& path, const QString& traceGraph)
{
    const quint64 ticket = ++*m_latest;
    m_busy = true;
    auto latest = m_latest;
    QPointer<GraphOpener> self(this);
    auto report = [self, ticket, latest](const QString& stage, int permille) {
        queueCall(self, [self, ticket, latest, stage, permille] {
            if (self && latest->load() == ticket)
                Q_EMIT self->progress(stage, permille);
        });
    };
    Q_EMIT progress(tr("Reading %1…").arg(QFileInfo(path).fileName()), 0);

    // The result comes back through a queued call (heaptrack's pattern), not a QFuture
    // continuation: with Qt 6.4, a continuation attached to a job that had already finished
    // (a missing file fails at once) was sometimes never called.
    auto deliver = [self, ticket, path](OpenResult result) {
        queueCall(self, [self, ticket, path, result] {
            if (self)
                self->finish(ticket, path, result);
        });
    };
    startInPool(backgroundPool(), [path, traceGraph, ticket, latest, report, deliver] {
        lowerThreadPriority();
        deliver(load(path, traceGraph, ticket, latest, report));
    });
}

GraphOpener::OpenResult GraphOpener::load(const QString& path, const QString& traceGraph, quint64 ticket,
    const std::shared_ptr<std::atomic<quint64>>& latest,
    const std::function<void(const QString&, int)>& report)
{
    OpenResult out;
    auto stale = [&] { return latest->load() != ticket; };
    try {
        QElapsedTimer timer;
        timer.start();
        JointGraph graph;
        if (!path.startsWith(QLatin1String(":/")) && trace::isTorchTracePath(corePath(path))) {
            report(QObject::tr("Reading the compiled graphs of %1…").arg(QFileInfo(path).fileName()), 150);
            if (traceGraph.isEmpty()) {
                out.choices = tracedGraphChoices(trace::listTorchTrace(corePath(path)));
                if (!out.choices.isEmpty())
                    return out;
            }
            graph = loadGraphFile(corePath(path), traceGraph.toStdString());
        } else {
            const QByteArray bytes = readAll(path);
            if (stale())
                return {{}, {}, true, {}};
            report(QObject::tr("Parsing %1 (%2 MB)…")
                       .arg(QFileInfo(path).fileName())
                       .arg(bytes.size() / 1e6, 0, 'f', 1),
                150);
            const std::string text = bytes.toStdString();
            // A TORCH_LOGS capture of several compilations asks which one, as a TORCH_TRACE log does.
            if (traceGraph.isEmpty()) {
                if (const auto listing = listCompiledGraphsInText(text, corePath(path))) {
                    out.choices = tracedGraphChoices(*listing);
                    if (!out.choices.isEmpty())
                        return out;
                }
            }
            // A compile id given for a file that is no log is an error, as on the command line.
            graph = loadGraphText(text, corePath(path), traceGraph.toStdString());
        }
        const double loadSeconds = static_cast<double>(timer.nsecsElapsed()) * 1e-9;
        if (stale())
            return {{}, {}, true, {}};
        report(
            QObject::tr("Finding forward, backward and repeated blocks in %1 nodes…").arg(graph.size()), 700);
        auto loaded = analyseGraph(std::move(graph), path, loadSeconds, traceGraph);
        if (stale())
            return {{}, {}, true, {}};
        out.graph = std::move(loaded);
    } catch (const Error& e) {
        out.error = QString::fromUtf8(e.what());
    } catch (const std::bad_alloc&) {
        out.error = QObject::tr("%1: not enough memory to open this graph").arg(path);
    } catch (const std::exception& e) {
        out.error = QObject::tr("%1: %2").arg(path, QString::fromUtf8(e.what()));
    }
    return out;
}

void GraphOpener::finish(quint64 ticket, const QString& path, const OpenResult& result)
{
    if (ticket != m_latest->load())
        return; // a newer open or a cancel took over; it reports for itself
    m_busy = false;
    if (result.cancelled)
        Q_EMIT cancelled(path);
    else if (!result.error.isEmpty())
        Q_EMIT failed(path, result.error);
    else if (!result.choices.isEmpty())
        Q_EMIT choiceNeeded(path, result.choices);
    else
        Q_EMIT opened(result.graph);
}

void GraphOpener::cancel()
{
    if (!m_busy)
        return;
    ++*m_latest;
    m_busy = false;
    Q_EMIT cancelled(QString());
}

} // namespace remat::ui
