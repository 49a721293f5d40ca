// SPDX-License-Identifier: MIT
// The desktop app's entry: command line, main window, and the headless --screenshot/--measure/--export-*
// runs.
#include "gui_entry.h"

#include "canvas/graph_canvas.h"
#include "document/graph_document.h"
#include "headless/quiet_headless_run.h"
#include "resources.h"
#include "window/command_line.h"
#include "window/headless_session.h"
#include "window/main_window.h"
#include "window/recovery_offer.h"
#include "window/scripted_tagging.h"
#include "window/settings.h"
#include "window/termination_signals.h"

#include <QApplication>
#include <QDir>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <cstdio>
#include <optional>
#include <vector>

namespace remat::ui {

int runGui(int argc, char** argv)
{
    // Screenshots and exports need no display: pick the offscreen platform unless told otherwise.
    if (GuiOptions::headlessArguments(argc, argv)) {
        if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
            qputenv("QT_QPA_PLATFORM", "offscreen");
        quietHeadlessRun();
    }
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Remat Explorer"));
    QApplication::setOrganizationName(QStringLiteral("RematExplorer"));
    QApplication::setApplicationVersion(QStringLiteral(REMAT_VERSION));
    QApplication::setDesktopFileName(QStringLiteral("remat-explorer"));
    initResources();

    GuiOptions options;
    int exitCode = 0;
    if (!parseGuiOptions(app, options, exitCode))
        return exitCode;
    const bool headless = options.headless();

    MainWindow window;
    window.document()->setRecoveryHandler(recoveryHandler(&window, options.restore, !headless));
    // Measuring starts from a cold layout cache so that the first picture is honest. Only then is
    // there a temporary folder: a run killed with SIGKILL would leave it behind in /tmp.
    std::optional<QTemporaryDir> coldCache;
    if (options.measure)
        coldCache.emplace();
    window.canvas()->layoutService()->setCacheDirectory(coldCache
            ? coldCache->path()
            : QStandardPaths::writableLocation(QStandardPaths::CacheLocation) + QStringLiteral("/layouts"));
    if (headless) {
        window.setInteractive(false);
        window.resize(options.windowSize);
        window.show();
        auto* session = new HeadlessSession(&window, options, &window);
        QObject::connect(
            session, &HeadlessSession::finished, &app, [](int code) { QApplication::exit(code); });
        session->start();
        const int code = app.exec();
        Settings::flush();
        return code;
    }
    window.show();
    closeOnTerminationSignals(&window);
    if (!options.tags.isEmpty())
        new ScriptedTagging(&window, options.tags, options.tagDelayMs);
    window.openFile(options.graph.isEmpty() ? MainWindow::bundledSamplePath()
                                            : QDir::current().absoluteFilePath(options.graph),
        options.traceGraph);
    const int code = app.exec();
    Settings::flush(); // the window's geometry, written as it closed
    return code;
}

int runRender(int argc, char** argv)
{
    // render GRAPH [--plan P] [partition options] -o OUT: the canvas as --export-image draws it.
    std::vector<QByteArray> args {QByteArray(argv[0])};
    QByteArray output;
    for (int i = 2; i < argc; ++i) {
        const QByteArray arg(argv[i]);
        if ((arg == "-o" || arg == "--output") && i + 1 < argc) {
            output = argv[++i];
            continue;
        }
        args.push_back(arg);
    }
    if (output.isEmpty()) {
        std::fprintf(stderr,
            "remat-explorer render: -o OUT.png|svg|pdf is required\n"
            "usage: remat-explorer render GRAPH [--plan PLAN.json] [--partitioner P] [--rules R] "
            "[--budget B] [--tag NAME=POLICY] [--expand all|GROUP] [--graph ID] -o OUT\n");
        return 2;
    }
    args.push_back("--export-image");
    args.push_back(output);
    std::vector<char*> pointers;
    for (QByteArray& a : args)
        pointers.push_back(a.data());
    pointers.push_back(nullptr);
    return runGui(static_cast<int>(args.size()), pointers.data());
}

} // namespace remat::ui
