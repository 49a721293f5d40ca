// SPDX-License-Identifier: MIT
// The desktop app's entry: command line, main window, and the headless --screenshot/--measure/--export-* runs.
#include "gui_entry.h"

#include "app/command_line.h"
#include "app/headless_session.h"
#include "app/main_window.h"
#include "canvas/graph_canvas.h"
#include "resources.h"

#include <QApplication>
#include <QDir>
#include <QStandardPaths>
#include <QTemporaryDir>

namespace remat::ui {

int runGui(int argc, char** argv)
{
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
    // Measuring starts from a cold layout cache so that the first picture is honest.
    QTemporaryDir coldCache;
    window.canvas()->layoutService()->setCacheDirectory(
        options.measure ? coldCache.path() : QStandardPaths::writableLocation(QStandardPaths::CacheLocation) + QStringLiteral("/layouts"));
    if (headless) {
        window.setInteractive(false);
        window.resize(options.windowSize);
        window.show();
        auto* session = new HeadlessSession(&window, options, &window);
        QObject::connect(session, &HeadlessSession::finished, &app, [](int code) { QApplication::exit(code); });
        session->start();
        return app.exec();
    }
    window.show();
    window.openFile(options.graph.isEmpty() ? MainWindow::bundledSamplePath() : QDir::current().absoluteFilePath(options.graph));
    return app.exec();
}

} // namespace remat::ui
