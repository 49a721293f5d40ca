// SPDX-License-Identifier: MIT
// A first window: opens a graph (or the bundled sample) and shows its summary.
#include "gui_entry.h"

#include "graph/error.h"
#include "io/graph_loader.h"
#include "partition/partitioner.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>
#include <QMainWindow>
#include <QPlainTextEdit>
#include <QTimer>

namespace remat::ui {

int runGui(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Remat Explorer"));
    QCommandLineParser parser;
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("graph"), QStringLiteral("Joint graph to open."));
    const QCommandLineOption screenshot(QStringLiteral("screenshot"), QStringLiteral("Save the window to FILE and exit."),
                                        QStringLiteral("FILE"));
    parser.addOption(screenshot);
    parser.process(app);
    const QString path = parser.positionalArguments().value(
        0, QStringLiteral(REMAT_SOURCE_DIR "/samples/transformer_block.json"));

    QMainWindow window;
    auto* text = new QPlainTextEdit(&window);
    text->setReadOnly(true);
    window.setCentralWidget(text);
    window.setWindowTitle(QFileInfo(path).fileName() + QStringLiteral(" - Remat Explorer"));
    window.resize(900, 600);
    try {
        const JointGraph graph = loadGraphFile(path.toStdString());
        const PartitionResult result = partitionGraph(graph, {});
        text->setPlainText(QStringLiteral("%1\n%2 nodes\nmin-cut (torch-1.13 rules): %3 saved values, %4 bytes")
                               .arg(path)
                               .arg(graph.size())
                               .arg(result.savedValues.size())
                               .arg(result.savedBytes));
    } catch (const Error& e) {
        text->setPlainText(QString::fromStdString(e.what()));
    }
    window.show();
    if (parser.isSet(screenshot)) {
        QTimer::singleShot(200, &window, [&] {
            window.grab().save(parser.value(screenshot));
            app.quit();
        });
    }
    return app.exec();
}

} // namespace remat::ui
