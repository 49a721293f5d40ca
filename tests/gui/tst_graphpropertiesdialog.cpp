// SPDX-License-Identifier: MIT
// File > Graph Properties: what the file says about its graph, shown in the app (the producer,
// the description a print carries, the rules it opens under and why, static inputs, PyTorch's
// decisions), from a real torch 2.14 print and a real 2.14 export.
#include "io/graph_loader.h"
#include "main_window_test_support.h"
#include "window/graph_properties_dialog.h"

#include <QAction>
#include <QApplication>
#include <QLabel>
#include <QTimer>

using namespace remat;
using namespace remat::ui;
using namespace remat::ui::test;

namespace {

QString field(const QDialog& dialog, const char* label)
{
    const auto* text = dialog.findChild<QLabel*>(QString::fromLatin1(label));
    return text ? text->text() : QStringLiteral("<no %1 row>").arg(QString::fromLatin1(label));
}

} // namespace

class TestGraphPropertiesDialog : public QObject {
    Q_OBJECT

private slots:
    /// A print_readable dump: 2.x's annotations set the rules, and the print says what it cannot know.
    void printSaysWhatItCannotKnow()
    {
        MainWindow w;
        const QString print = QStringLiteral(REMAT_TEST_DATA_DIR "/printed/torch214/mlp_relu.compile.txt");
        QVERIFY(openAndWait(w, print));
        auto* action = w.findChild<QAction*>(QStringLiteral("graphPropertiesAction"));
        QVERIFY(action);
        QVERIFY(action->isEnabled());

        // The dialog is modal: read it once it shows, then close it.
        QString rules, statics, description, decisions, file;
        QTimer::singleShot(0, &w, [&] {
            auto* dialog = w.findChild<GraphPropertiesDialog*>();
            QVERIFY(dialog);
            rules = field(*dialog, "Opens under");
            statics = field(*dialog, "Static inputs");
            description = field(*dialog, "Description");
            decisions = field(*dialog, "PyTorch's decisions");
            file = field(*dialog, "File");
            dialog->reject();
        });
        action->trigger();
        QCOMPARE(file, print);
        QVERIFY2(rules.startsWith(QLatin1String("torch-2.14 (the file was made by PyTorch 2.x)")),
            qPrintable(rules));
        QVERIFY2(statics.startsWith(QLatin1String("none")), qPrintable(statics));
        QVERIFY2(description.contains(QLatin1String("which inputs are parameters")), qPrintable(description));
        QCOMPARE(decisions, QStringLiteral("none"));
    }

    /// The export of the same joint module knows its static inputs and PyTorch's decisions.
    void exportNamesStaticInputsAndDecisions()
    {
        const JointGraph graph = loadGraphFile(REMAT_TEST_DATA_DIR "/printed/torch214/mlp_relu.compile.json");
        GraphPropertiesDialog dialog(graph);
        QVERIFY2(field(dialog, "Opens under")
                     .startsWith(QLatin1String("torch-2.14 (the file was made by PyTorch 2.14.1")),
            qPrintable(field(dialog, "Opens under")));
        QVERIFY2(field(dialog, "Static inputs")
                     .startsWith(QLatin1String("primals_1, primals_2, primals_4, primals_5")),
            qPrintable(field(dialog, "Static inputs")));
        QVERIFY(field(dialog, "Inside torch.compile").startsWith(QLatin1String("yes")));
        QVERIFY2(field(dialog, "PyTorch's decisions").contains(QLatin1String("min_cut: 3 saved")),
            qPrintable(field(dialog, "PyTorch's decisions")));
        QVERIFY(
            field(dialog, "Graph")
                .startsWith(QLatin1String("joint graph, 29 nodes (5 inputs, 1 tangent, 1 forward output)")));
    }

    /// A torch 1.13 print has no sizes: it opens under 1.13's rules and says it cannot be partitioned.
    void torch113PrintHasNoSizes()
    {
        const JointGraph graph = loadGraphFile(REMAT_TEST_DATA_DIR "/printed/mlp_relu.torch113.txt");
        GraphPropertiesDialog dialog(graph);
        QVERIFY(field(dialog, "Opens under").startsWith(QLatin1String("torch-1.13 (nothing in the file")));
        QVERIFY(field(dialog, "Node sizes").startsWith(QLatin1String("unknown")));
        QVERIFY(!dialog.findChild<QLabel*>(QStringLiteral("Static inputs")));
    }
};

QTEST_MAIN(TestGraphPropertiesDialog)
#include "tst_graphpropertiesdialog.moc"
