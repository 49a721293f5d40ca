// SPDX-License-Identifier: MIT
// Times "Expand All" layouts (and the whole of it through the LayoutService), cold (empty cache, Graphviz in
// worker children) and cached (a fresh cache object reading the files the cold run wrote), for each graph on
// the command line:
//   bench_layout [--whole] GRAPH.json...
// --whole lays each picture out as one Graphviz graph instead of group by group (slow: minutes
// on gpt_n96). This binary is its own layout worker, as the app is.
#include "canvas/graph_scene.h"
#include "io/graph_loader.h"
#include "layout/layout_process.h"
#include "layout/layout_service.h"
#include "layout/layout_worker.h"
#include "layout/view_layout.h"
#include "model/loaded_graph.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QSignalSpy>
#include <QTemporaryDir>

#include <cstdio>
#include <exception>

using namespace remat;
using namespace remat::ui;

namespace {

double secondsSince(const QElapsedTimer& t)
{
    return static_cast<double>(t.nsecsElapsed()) * 1e-9;
}

bool benchOne(const QString& path, bool whole)
{
    const LoadedGraphPtr graph = analyseGraph(loadGraphFile(path.toStdString()), path);
    QElapsedTimer t;
    t.start();
    const ViewGraph view = buildViewGraph(*graph, std::vector<char>(graph->groups.groups.size(), 1));
    const LayoutRequest request = layoutRequestFor(*graph, view);
    const double viewSeconds = secondsSince(t);

    QTemporaryDir dir;
    ViewLayoutOptions options;
    options.workerProgram = layoutWorkerProgram();
    options.composeBlocks = !whole;
    const CancelCheck never = [] { return false; };
    const auto quiet = [](const QString&) {};
    double seconds[2] = {0, 0};
    LayoutResult layout;
    for (int pass = 0; pass < 2; ++pass) {
        LayoutCache cache(dir.path()); // a new object: the cached pass reads from disk
        ViewLayoutReport report;
        t.restart();
        auto result = layoutView(*graph, view, request, cache, options, never, quiet, report);
        seconds[pass] = secondsSince(t);
        if (!result || report.cached != (pass == 1) || !report.note.isEmpty()) {
            std::fprintf(
                stderr, "%s: pass %d went wrong (%s)\n", qPrintable(path), pass, qPrintable(report.note));
            return false;
        }
        layout = std::move(*result);
    }
    // The whole of Expand All off the GUI thread as the app runs it: view, layout, graphics items.
    double service[2] = {0, 0};
    QTemporaryDir serviceDir;
    GraphScene scene;
    for (int pass = 0; pass < 2; ++pass) {
        LayoutService layouts;
        layouts.setCacheDirectory(serviceDir.path());
        layouts.setComposeBlocks(!whole);
        QSignalSpy ready(&layouts, &LayoutService::contentReady);
        t.restart();
        layouts.request(graph, std::vector<char>(graph->groups.groups.size(), 1), scene.statePointer());
        if (!ready.wait(600'000)) {
            std::fprintf(stderr, "%s: the layout service went wrong\n", qPrintable(path));
            return false;
        }
        service[pass] = secondsSince(t);
    }
    std::printf("%-16s %6zu nodes %6zu boxes %6zu edges  view %6.3f s  cold %7.3f s  cached %6.3f s  %.0f x "
                "%.0f px  (%s)\n",
        qPrintable(QFileInfo(path).completeBaseName()), graph->size(), request.boxes.size(),
        request.links.size(), viewSeconds, seconds[0], seconds[1], layout.bounds.width(),
        layout.bounds.height(), qPrintable(layout.engine));
    std::printf("%-16s Expand All through the layout service (view, layout, graphics items): cold %.3f s  "
                "cached %.3f s\n",
        "", service[0], service[1]);
    return true;
}

} // namespace

int main(int argc, char** argv)
{
    if (int code = 0; serveLayoutWorker(argc, argv, code))
        return code;
    // Box sizes come from font metrics: a GUI application, on the offscreen platform by default.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QStringList graphs = QCoreApplication::arguments().mid(1);
    const bool whole = graphs.removeAll(QStringLiteral("--whole")) > 0;
    if (graphs.isEmpty()) {
        std::fprintf(stderr, "usage: bench_layout [--whole] GRAPH.json...\n");
        return 2;
    }
    try {
        for (const QString& g : graphs) {
            if (!benchOne(g, whole))
                return 1;
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_layout: %s\n", e.what());
        return 1;
    }
    return 0;
}
