// SPDX-License-Identifier: MIT
// Frame times of a scripted pan and zoom on the canvas, as the main window shows it:
//   bench_frames [--frames N] GRAPH.json...
// Each graph is opened (its summary of groups), measured, then expanded in full (Expand All) and
// measured again; the summary is the baseline of the same run. A frame is the GUI thread's work
// for one input event: delivering it (wheel notch, or one mouse move of a drag), painting the
// whole viewport synchronously, and the events that follow (the overview map's repaint).
// Printed: worst, 95th percentile and median per picture, and the picture's frames per zoom level.
#include "canvas/graph_canvas.h"
#include "canvas/graph_scene.h"
#include "canvas/graph_view.h"
#include "document/graph_document.h"
#include "layout/layout_worker.h"
#include "resources.h"
#include "window/main_window.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QGraphicsItem>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QWheelEvent>

#include <algorithm>
#include <cstdio>
#include <vector>

using namespace remat;
using namespace remat::ui;

namespace {

constexpr int kTimeoutMs = 900'000;

bool idle(const MainWindow& w)
{
    return !w.isBusy() && w.document()->graph() && w.document()->outcome()
        && w.canvas()->scene()->hasContent() && !w.canvas()->hasPendingWork();
}

bool waitIdle(const MainWindow& w)
{
    QElapsedTimer t;
    t.start();
    while (!idle(w)) {
        if (t.elapsed() > kTimeoutMs)
            return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
        QTest::qWait(20);
    }
    QTest::qWait(200); // the overview map's delayed render
    QCoreApplication::processEvents();
    return true;
}

struct Stats {
    double worst = 0;
    double p95 = 0;
    double median = 0;
};

Stats statsOf(std::vector<double> ms)
{
    Stats s;
    if (ms.empty())
        return s;
    std::sort(ms.begin(), ms.end());
    s.worst = ms.back();
    s.p95 = ms[std::min(ms.size() - 1, static_cast<std::size_t>(0.95 * static_cast<double>(ms.size())))];
    s.median = ms[ms.size() / 2];
    return s;
}

/// Where a drag can start: a point over no box (a press on a box selects it instead of panning).
QPoint freeSpot(GraphView* view, QPoint preferred)
{
    const QRect area = view->viewport()->rect().adjusted(40, 40, -40, -40);
    for (int dy = 0; dy < area.height(); dy += 17) {
        for (int dx = 0; dx < area.width(); dx += 23) {
            const QPoint p(area.left() + (preferred.x() - area.left() + dx) % area.width(),
                area.top() + (preferred.y() - area.top() + dy) % area.height());
            bool onBox = false;
            for (QGraphicsItem* item : view->items(p))
                onBox = onBox || (item->flags() & QGraphicsItem::ItemIsSelectable);
            if (!onBox)
                return p;
        }
    }
    return {-1, -1};
}

class FrameScript {
public:
    explicit FrameScript(GraphView* view)
        : m_view(view)
    { }

    /// One frame: `input` delivers the event; then the viewport paints and pending events run.
    template <typename Input> void frame(Input input)
    {
        QElapsedTimer t;
        t.start();
        input();
        m_view->viewport()->repaint();
        QCoreApplication::processEvents();
        m_ms.push_back(static_cast<double>(t.nsecsElapsed()) * 1e-6);
    }

    void wheel(QPoint at, int notches)
    {
        frame([&] {
            QWheelEvent event(at, m_view->viewport()->mapToGlobal(at), QPoint(), QPoint(0, 120 * notches),
                Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
            QApplication::sendEvent(m_view->viewport(), &event);
        });
    }

    /// A drag of `steps` mouse moves by `delta` each; one frame per move.
    void drag(QPoint from, QPoint delta, int steps)
    {
        QWidget* vp = m_view->viewport();
        const QPoint start = freeSpot(m_view, from);
        if (start.x() < 0) { // covered in boxes: pan as the scroll bars would
            for (int i = 0; i < steps; ++i)
                frame([&] { m_view->centerOn(m_view->mapToScene(vp->rect().center() - delta)); });
            return;
        }
        QTest::mousePress(vp, Qt::LeftButton, Qt::NoModifier, start);
        QPoint at = start;
        for (int i = 0; i < steps; ++i) {
            at += delta;
            frame([&] { QTest::mouseMove(vp, at); });
        }
        QTest::mouseRelease(vp, Qt::LeftButton, Qt::NoModifier, at);
    }

    std::vector<double> take() { return std::exchange(m_ms, {}); }

private:
    GraphView* m_view;
    std::vector<double> m_ms;
};

/// Pans and zooms over the picture at several zoom levels: 40 frames per level.
void runScript(
    GraphView* view, int framesPerLevel, std::vector<std::pair<double, std::vector<double>>>& perLevel)
{
    const QRectF scene = view->sceneRect();
    const QRect vp = view->viewport()->rect();
    const double fit = std::min(vp.width() / scene.width(), vp.height() / scene.height());
    const double levels[] = {fit, 0.1, 0.3, 0.62, 1.0};
    FrameScript script(view);
    int place = 0;
    for (double level : levels) {
        // A different part of the picture for each level: down the forward, up the backward.
        ++place;
        const double fx = place % 2 ? 0.3 : 0.7;
        const double fy = 0.15 + 0.17 * place;
        view->setZoom(level);
        view->centerOn(scene.left() + scene.width() * fx, scene.top() + scene.height() * fy);
        QCoreApplication::processEvents();
        const int notches = std::max(1, framesPerLevel / 10);
        for (int i = 0; i < notches; ++i)
            script.wheel(vp.center() + QPoint(37 * i, -23 * i), 1);
        for (int i = 0; i < notches; ++i)
            script.wheel(vp.center() - QPoint(31 * i, -19 * i), -1);
        const int dragFrames = framesPerLevel - 2 * notches;
        script.drag(vp.center() + QPoint(vp.width() / 4, vp.height() / 4), QPoint(-9, -6), dragFrames / 2);
        script.drag(vp.center() - QPoint(vp.width() / 4, 0), QPoint(11, 0), dragFrames - dragFrames / 2);
        perLevel.emplace_back(view->zoom(), script.take());
    }
}

void report(const char* graph, const char* picture, std::size_t boxes,
    const std::vector<std::pair<double, std::vector<double>>>& perLevel)
{
    std::vector<double> all;
    for (const auto& [zoom, ms] : perLevel)
        all.insert(all.end(), ms.begin(), ms.end());
    const Stats s = statsOf(all);
    std::printf("%-12s %-9s %6zu boxes %4zu frames  worst %7.2f ms  p95 %7.2f ms  median %6.2f ms\n", graph,
        picture, boxes, all.size(), s.worst, s.p95, s.median);
    for (const auto& [zoom, ms] : perLevel) {
        const Stats l = statsOf(ms);
        std::printf("%-12s %-9s   at zoom %5.3f: worst %7.2f ms  p95 %7.2f ms  median %6.2f ms\n", "", "",
            zoom, l.worst, l.p95, l.median);
    }
    std::fflush(stdout);
}

bool benchOne(const QString& source, int framesPerLevel)
{
    // A copy in a temporary folder: the window's autosave writes a project file beside the graph.
    QTemporaryDir dir;
    const QString path = dir.filePath(QFileInfo(source).fileName());
    if (!QFile::copy(source, path)) {
        std::fprintf(stderr, "bench_frames: cannot read %s\n", qPrintable(source));
        return false;
    }
    const QByteArray name = QFileInfo(source).completeBaseName().toUtf8();
    MainWindow w;
    w.setInteractive(false);
    w.canvas()->layoutService()->setCacheDirectory(dir.filePath(QStringLiteral("layouts")));
    w.resize(1600, 1000);
    w.show();
    w.openFile(path);
    if (!waitIdle(w)) {
        std::fprintf(stderr, "bench_frames: %s did not open\n", qPrintable(source));
        return false;
    }
    GraphView* view = w.canvas()->view();
    std::vector<std::pair<double, std::vector<double>>> perLevel;
    runScript(view, framesPerLevel, perLevel);
    report(name.constData(), "summary", w.canvas()->scene()->boxCount(), perLevel);

    w.canvas()->expandAll();
    if (!waitIdle(w)) {
        std::fprintf(stderr, "bench_frames: Expand All of %s did not finish\n", qPrintable(source));
        return false;
    }
    perLevel.clear();
    runScript(view, framesPerLevel, perLevel);
    report(name.constData(), "expanded", w.canvas()->scene()->boxCount(), perLevel);
    return true;
}

} // namespace

int main(int argc, char** argv)
{
    if (int code = 0; serveLayoutWorker(argc, argv, code))
        return code;
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true); // the user's settings and recent files stay untouched
    initResources();
    QStringList args = QCoreApplication::arguments().mid(1);
    int framesPerLevel = 40;
    if (const qsizetype i = args.indexOf(QStringLiteral("--frames")); i >= 0 && i + 1 < args.size()) {
        framesPerLevel = std::max(10, args[i + 1].toInt() / 5);
        args.remove(i, 2);
    }
    if (args.isEmpty()) {
        std::fprintf(stderr, "usage: bench_frames [--frames N] GRAPH.json...\n");
        return 2;
    }
    for (const QString& g : args) {
        if (!benchOne(g, framesPerLevel))
            return 1;
    }
    return 0;
}
