// SPDX-License-Identifier: MIT
#include "app/command_line.h"

#include <QCommandLineParser>
#include <QCoreApplication>

#include <cstdio>

namespace remat::ui {

bool parseGuiOptions(const QCoreApplication& app, GuiOptions& options, int& exitCode)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QCoreApplication::translate("main", "Remat Explorer: open a PyTorch joint graph, tag nodes, watch the partition change.\n"
                                            "Headless commands (partition, info, bench) are listed by `remat-explorer help`."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("graph"),
                                 QCoreApplication::translate("main", "Joint graph to open (JSON or printed); the bundled sample if none."),
                                 QStringLiteral("[graph]"));
    const QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                        QCoreApplication::translate("main", "Render the window to <file> (PNG) once laid out, then exit."),
                                        QStringLiteral("file"));
    const QCommandLineOption zoom(QStringLiteral("zoom"),
                                  QCoreApplication::translate("main", "With --screenshot: 'fit' or a scale factor such as 0.5."),
                                  QStringLiteral("fit|factor"));
    const QCommandLineOption select(QStringLiteral("select"),
                                    QCoreApplication::translate("main", "Select <node> and centre on it (expands its groups)."),
                                    QStringLiteral("node"));
    const QCommandLineOption tag(QStringLiteral("tag"),
                                 QCoreApplication::translate("main", "Tag a node before the screenshot, e.g. mm_3=MUST_RECOMPUTE "
                                                                     "(repeatable; not saved)."),
                                 QStringLiteral("node=POLICY"));
    const QCommandLineOption expand(QStringLiteral("expand"),
                                    QCoreApplication::translate("main", "Expand 'all' groups, or the group with this label."),
                                    QStringLiteral("all|label"));
    const QCommandLineOption size(QStringLiteral("size"), QCoreApplication::translate("main", "Window size for --screenshot."),
                                  QStringLiteral("WxH"));
    const QCommandLineOption measure(QStringLiteral("measure"),
                                     QCoreApplication::translate("main", "Print open, first-picture and re-partition timings, then exit."));
    const QCommandLineOption repeats(QStringLiteral("repeats"),
                                     QCoreApplication::translate("main", "With --measure: how many tags to time (default 10)."),
                                     QStringLiteral("n"));
    parser.addOptions({screenshot, zoom, select, tag, expand, size, measure, repeats});
    if (!parser.parse(app.arguments())) {
        std::fprintf(stderr, "%s\n%s", qPrintable(parser.errorText()), qPrintable(parser.helpText()));
        exitCode = 2;
        return false;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        std::printf("%s", qPrintable(parser.helpText()));
        exitCode = 0;
        return false;
    }
    if (parser.isSet(QStringLiteral("version"))) {
        std::printf("%s %s\n", qPrintable(QCoreApplication::applicationName()), qPrintable(QCoreApplication::applicationVersion()));
        exitCode = 0;
        return false;
    }
    options.graph = parser.positionalArguments().value(0);
    options.screenshot = parser.value(screenshot);
    options.zoom = parser.value(zoom);
    options.select = parser.value(select);
    options.tags = parser.values(tag);
    options.expand = parser.value(expand);
    options.measure = parser.isSet(measure);
    if (parser.isSet(repeats))
        options.measureRepeats = std::max(1, parser.value(repeats).toInt());
    if (parser.isSet(size)) {
        const QStringList parts = parser.value(size).split(QLatin1Char('x'));
        if (parts.size() == 2 && parts[0].toInt() > 0 && parts[1].toInt() > 0)
            options.windowSize = QSize(parts[0].toInt(), parts[1].toInt());
    }
    return true;
}

} // namespace remat::ui
