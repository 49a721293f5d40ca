// SPDX-License-Identifier: MIT
// File > Export: the plan as the core writes it (with the budget keys), the plan with a Python
// script that really runs, the canvas as PNG and SVG, and the same exports from the headless mode.
#include "budget/budget_io.h"
#include "budget/budget_session.h"
#include "canvas/canvas_export.h"
#include "canvas/graph_canvas.h"
#include "canvas/graph_scene.h"
#include "document/graph_document.h"
#include "document/plan_export.h"
#include "gui_test_support.h"
#include "install/data_dir.h"
#include "io/plan_json.h"
#include "main_window_test_support.h"
#include "model/budget_outcome.h"
#include "partition/partitioner.h"
#include "window/export_actions.h"
#include "window/headless_session.h"
#include "window/main_window.h"
#include "window/script_dialog.h"

#include <QAction>
#include <QGraphicsRectItem>
#include <QGraphicsScene>
#include <QImage>
#include <QMenu>
#include <QMenuBar>
#include <QProcess>
#include <QSignalSpy>
#include <QTest>

using namespace remat;
using namespace remat::ui;
using namespace remat::ui::test;

namespace {

/// Opens `path` and, when `budget` is set, switches to the memory-budget partitioner.
void openAndPartition(MainWindow& w, const QString& path, std::optional<double> budget = std::nullopt)
{
    w.setInteractive(false);
    w.show();
    w.openFile(path);
    QTRY_VERIFY_WITH_TIMEOUT(idle(w), kTimeoutMs);
    if (!budget)
        return;
    BudgetSettings settings;
    settings.budget = *budget;
    w.document()->setBudgetSettings(settings);
    w.document()->setPartitionSettings(
        PartitionerKind::MinCut, RuleSet::Torch113, OpListCompiler::Nvfuser, true);
    QTRY_VERIFY_WITH_TIMEOUT(idle(w) && w.document()->outcome()->budget, kTimeoutMs);
}

/// A Python with torch, or empty.
bool pythonHasTorch()
{
    QProcess python;
    python.start(pythonInterpreter(), {QStringLiteral("-c"), QStringLiteral("import torch, networkx")});
    return python.waitForFinished(120'000) && python.exitStatus() == QProcess::NormalExit
        && python.exitCode() == 0;
}

} // namespace

class TestPlanExport : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { test::isolate(); }

    void menuHasTheExports()
    {
        MainWindow w;
        QMenu* exportMenu = nullptr;
        for (QAction* a : w.menuBar()->actions()) {
            if (!a->menu())
                continue;
            for (QAction* b : a->menu()->actions()) {
                if (b->menu() && b->text().remove(QLatin1Char('&')) == QStringLiteral("Export"))
                    exportMenu = b->menu();
            }
        }
        QVERIFY(exportMenu);
        QStringList texts;
        for (QAction* a : exportMenu->actions())
            texts << a->text().remove(QLatin1Char('&'));
        QVERIFY(texts.contains(QStringLiteral("Plan (JSON)…")));
        QVERIFY(texts.contains(QStringLiteral("Plan and Python Script…")));
        QVERIFY(texts.contains(QStringLiteral("Canvas Image…")));
        QVERIFY(!w.exportActions()->planAction()->isEnabled()); // nothing open yet

        openAndPartition(w, test::samplePath("mlp.json"));
        QVERIFY(w.exportActions()->planAction()->isEnabled());
        QVERIFY(w.exportActions()->scriptAction()->isEnabled());
        QVERIFY(w.exportActions()->imageAction()->isEnabled());
    }

    void planIsTheCoresPlan()
    {
        MainWindow w;
        openAndPartition(w, test::samplePath("transformer_block.json"));
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("plan.json"));
        QSignalSpy exported(w.exportActions(), &ExportActions::exported);
        QCOMPARE(w.exportActions()->exportPlan(path), QString());
        QCOMPARE(exported.count(), 1);
        const JointGraph& graph = w.document()->graph()->graph;
        const std::string expected
            = planToJson(graph, partitionGraph(graph, w.document()->partitionOptions()));
        QCOMPARE(readFile(path).toStdString(), expected);
        QVERIFY(!readFile(path).contains("\"budget\""));
    }

    void budgetPlanHasTheBudgetKeys()
    {
        MainWindow w;
        openAndPartition(w, test::samplePath("transformer_block.json"), 0.3);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("plan.json"));
        QCOMPARE(w.exportActions()->exportPlan(path), QString());
        // As `remat-explorer budget --budget 0.3 -o`: the core's plan and the core's extras.
        const JointGraph& graph = w.document()->graph()->graph;
        const BudgetSession session(graph, PartitionOptions {}, BudgetOptions {});
        const BudgetedPlan plan = session.plan(0.3, MemorySimulationOptions {false, false});
        PlanExtras extras = budgetPlanExtras(graph, plan, session.planner().estimator().unit());
        addBudgetSettings(extras, KnapsackSolver::Dp, RuntimeEstimatorKind::Flops, {});
        const std::string expected = planToJson(graph, plan.result, extras);
        const QByteArray written = readFile(path);
        QCOMPARE(written.toStdString(), expected);
        for (const char* key : {"\"budget\": 0.3", "\"memory_ratio\"", "\"activation_bytes\"",
                 "\"estimated_runtime\"", "\"peak_bytes\"", "\"partitioner\": \"memory-budget\"",
                 "\"solver\": \"dp\"", "\"estimator\": \"flops\""})
            QVERIFY2(written.contains(key), key);
        // Read back by the core, budget included.
        QVERIFY(readPlanFile(path.toStdString()).budget == std::optional<double>(0.3));
        QCOMPARE(w.exportActions()->suggestedBaseName(), QStringLiteral("transformer_block_budget_0.3"));
    }

    /// Two graphs of one TORCH_TRACE log suggested one name ("graph_break.plan.json" for both):
    /// the second export offered to overwrite the first. The compile id is in the name.
    void aLogsGraphsSuggestTheirOwnNames()
    {
        MainWindow w;
        w.setInteractive(false);
        w.show();
        w.openFile(QStringLiteral(REMAT_TEST_DATA_DIR "/torch_trace/graph_break.log"), QStringLiteral("1/0"));
        QTRY_VERIFY_WITH_TIMEOUT(idle(w), kTimeoutMs);
        QCOMPARE(w.exportActions()->suggestedBaseName(), QStringLiteral("graph_break_1_0"));
        QCOMPARE(exportBaseName(*w.document()->graph()), QStringLiteral("graph_break_1_0"));
        w.openFile(QStringLiteral(REMAT_TEST_DATA_DIR "/torch_trace/sac.log")); // its only joint graph
        QTRY_VERIFY_WITH_TIMEOUT(
            idle(w) && w.document()->graph()->path.endsWith(QStringLiteral("sac.log")), kTimeoutMs);
        QCOMPARE(w.exportActions()->suggestedBaseName(), QStringLiteral("sac"));
    }

    /// A tag starts a re-partition off the GUI thread; an export made at once waits for it, so the
    /// plan has the tag (it was written from the plan before the tag).
    void exportRightAfterATagHasTheTag()
    {
        MainWindow w;
        openAndPartition(w, test::samplePath("mlp.json"));
        const NodeId relu = w.document()->graph()->graph.find("relu");
        QVERIFY(w.document()->outcome()->result->isSaved(relu));
        QCOMPARE(w.document()->tagNodes({relu}, CheckpointPolicy::MustRecompute), 1);
        QVERIFY(w.document()->isPartitioning());
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("tagged.plan.json"));
        QCOMPARE(w.exportActions()->exportPlan(path), QString());
        const PlanFile plan = readPlanFile(path.toStdString());
        QVERIFY(
            std::find(plan.savedValues.begin(), plan.savedValues.end(), "relu") == plan.savedValues.end());
        QVERIFY(readFile(path).contains("\"relu\": \"MUST_RECOMPUTE\""));
    }

    void failuresCarryTheCoresMessage()
    {
        MainWindow w;
        openAndPartition(w, test::samplePath("mlp.json"));
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("no/such/folder/plan.json"));
        const QString error = w.exportActions()->exportPlan(path);
        QVERIFY2(error.contains(path), qPrintable(error));
        QVERIFY(!QFile::exists(path));
        const QString tools = w.exportActions()->exportPlanAndScript(
            dir.filePath(QStringLiteral("p.json")), dir.filePath(QStringLiteral("run.py")), dir.path());
        QVERIFY2(tools.contains(QStringLiteral("apply_plan.py")), qPrintable(tools));
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("p.json"))));
    }

    void scriptRunsOneTrainingStep()
    {
        // The sample is opened where it is (the script rebuilds the model from files beside it);
        // nothing is written there, since the window is not interactive (no project autosave).
        MainWindow w;
        openAndPartition(w, test::samplePath("mlp.json"), 0.5);
        QTemporaryDir dir;
        const QString script = dir.filePath(QStringLiteral("run_mlp.py"));
        const QString plan = planPathForScript(script);
        QCOMPARE(plan, dir.filePath(QStringLiteral("mlp.plan.json")));
        QVERIFY(!defaultToolsDir().isEmpty());
        QCOMPARE(w.exportActions()->exportPlanAndScript(plan, script, defaultToolsDir()), QString());
        const QByteArray text = readFile(script);
        QVERIFY(text.contains(plan.toUtf8()));
        QVERIFY(text.contains("compile_with_plan"));
        QVERIFY(text.contains("build_from_recipe(RECIPE, GRAPH_DIR, [TOOLS])"));
        // The header names the budget plan as such (it said "min-cut, torch-2.14 rules").
        QVERIFY2(text.contains("; memory budget 0.5 (torch-2.14 rules, dp knapsack, flops estimator))"),
            text.left(400).constData());
        QVERIFY(text.contains(QStringLiteral("GRAPH_DIR = \"" REMAT_SOURCE_DIR "/samples\"").toUtf8()));
        QVERIFY(readFile(plan).contains("\"budget\": 0.5"));

        ScriptDialog dialog(plan, script);
        QCOMPARE(dialog.command(), QStringLiteral("/usr/bin/python3 ") + script);

        if (!pythonHasTorch())
            QSKIP("/usr/bin/python3 has no torch: the script was written but not run");
        QProcess python;
        python.setWorkingDirectory(dir.path());
        python.start(pythonInterpreter(), {script});
        QVERIFY(python.waitForFinished(300'000));
        const QString out = QString::fromUtf8(python.readAllStandardOutput());
        QVERIFY2(python.exitCode() == 0, qPrintable(QString::fromUtf8(python.readAllStandardError())));
        QVERIFY2(out.contains(QStringLiteral("one training step with ") + plan), qPrintable(out));
    }

    void bundledSampleScriptPointsAtTheInstalledSamples()
    {
        // The data dir's samples/ (the build tree's links to the sources, as an install's copies).
        MainWindow w;
        openAndPartition(w, MainWindow::bundledSamplePath());
        QTemporaryDir dir;
        const QString script = dir.filePath(QStringLiteral("run.py"));
        QCOMPARE(w.exportActions()->exportPlanAndScript(planPathForScript(script), script, defaultToolsDir()),
            QString());
        QVERIFY(!remat::dataDir().empty());
        QVERIFY(readFile(script).contains(
            ("GRAPH_DIR = \"" + (remat::dataDir() / "samples").string() + "\"").c_str()));
    }

    void canvasAsPngAndSvg()
    {
        MainWindow w;
        openAndPartition(w, test::samplePath("mlp.json"), 0.3);
        QTemporaryDir dir;
        const QString png = dir.filePath(QStringLiteral("canvas.png"));
        QCOMPARE(w.exportActions()->exportImage(png), QString());
        const QImage image(png);
        QVERIFY(!image.isNull());
        const QRectF scene = w.canvas()->scene()->sceneRect();
        QCOMPARE(image.size(), (scene.size() * RasterPlan::kPreferredScale).toSize());

        const QString svg = dir.filePath(QStringLiteral("canvas.svg"));
        QCOMPARE(w.exportActions()->exportImage(svg), QString());
        const QByteArray drawing = readFile(svg);
        QVERIFY(drawing.startsWith("<?xml"));
        QVERIFY(drawing.contains("<svg"));
        QVERIFY(drawing.contains("addmm")); // node names are text, not pixels
    }

    void absurdPicturesAreRefused()
    {
        // A fully expanded graph of many thousand nodes: labels would be unreadable in any PNG.
        const RasterPlan huge = RasterPlan::forSource(QRectF(0, 0, 400'000, 30'000));
        QVERIFY(!huge.refusal.isEmpty());
        QVERIFY(huge.refusal.contains(QStringLiteral("SVG")));
        const RasterPlan small = RasterPlan::forSource(QRectF(0, 0, 1000, 800));
        QVERIFY(small.refusal.isEmpty());
        QCOMPARE(small.scale, RasterPlan::kPreferredScale);
        const RasterPlan large = RasterPlan::forSource(QRectF(0, 0, 30'000, 4'000)); // shrunk, still readable
        QVERIFY(large.refusal.isEmpty());
        QVERIFY(large.size.width() <= RasterPlan::kMaxImageSide);
        QVERIFY(static_cast<double>(large.size.width()) * large.size.height() <= RasterPlan::kMaxImagePixels);

        QGraphicsScene scene;
        scene.addRect(0, 0, 400'000, 30'000);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("huge.png"));
        QVERIFY(exportSceneImage(scene, scene.sceneRect(), path).contains(QStringLiteral("export SVG")));
        QVERIFY(!QFile::exists(path));
        QCOMPARE(
            exportSceneImage(scene, scene.sceneRect(), dir.filePath(QStringLiteral("huge.svg"))), QString());
    }

    void headlessExportsPlanScriptAndImage()
    {
        QTemporaryDir dir;
        GuiOptions options;
        options.graph = test::samplePath("transformer_block.json");
        options.partitioner = QStringLiteral("budget");
        options.budget = 0.3;
        options.exportPlan = dir.filePath(QStringLiteral("tb.plan.json"));
        options.exportScript = dir.filePath(QStringLiteral("run_tb.py"));
        options.exportImage = dir.filePath(QStringLiteral("tb.svg"));
        QVERIFY(options.headless());
        MainWindow w;
        w.setInteractive(false);
        w.resize(1200, 800);
        w.show();
        HeadlessSession session(&w, options);
        QSignalSpy finished(&session, &HeadlessSession::finished);
        session.start();
        QVERIFY(finished.wait(kTimeoutMs));
        QCOMPARE(finished.first().first().toInt(), 0);
        QVERIFY(w.document()->budgetMode());
        QVERIFY(readFile(options.exportPlan).contains("\"budget\": 0.3"));
        QVERIFY(readFile(options.exportScript).contains(options.exportPlan.toUtf8()));
        QVERIFY(readFile(options.exportImage).contains("<svg"));
    }

    /// --inductor-passes on, headless: a capture of Inductor (which does not say its backend) is
    /// partitioned after the passes, and the exported plan says it was made with them.
    void headlessInductorPassesOn()
    {
        QTemporaryDir dir;
        GuiOptions options;
        options.graph = QStringLiteral(REMAT_TEST_DATA_DIR "/printed/torch_logs/inductor_gpt2.log");
        options.inductorPasses = QStringLiteral("on");
        options.exportPlan = dir.filePath(QStringLiteral("capture.plan.json"));
        MainWindow w;
        w.setInteractive(false);
        HeadlessSession session(&w, options);
        QSignalSpy finished(&session, &HeadlessSession::finished);
        session.start();
        QVERIFY(finished.wait(kTimeoutMs));
        QCOMPARE(finished.first().first().toInt(), 0);
        QVERIFY(w.document()->inductorJointPasses());
        QVERIFY(readFile(options.exportPlan).contains("\"inductor_joint_passes\": true"));
    }

    /// --export-script alone puts the plan beside the script: an existing file there is the
    /// user's and is not replaced (it was, silently); naming it with --export-plan replaces it.
    void headlessScriptKeepsAPlanFileItWasNotGiven()
    {
        QTemporaryDir dir;
        const QString plan = dir.filePath(QStringLiteral("mlp.plan.json"));
        QFile existing(plan);
        QVERIFY(existing.open(QIODevice::WriteOnly));
        existing.write("{\"mine\": true}");
        existing.close();
        GuiOptions options;
        options.graph = test::samplePath("mlp.json");
        options.exportScript = dir.filePath(QStringLiteral("run_mlp.py"));
        QCOMPARE(planPathForScript(options.exportScript), plan);
        for (const bool named : {false, true}) {
            if (named)
                options.exportPlan = plan;
            MainWindow w;
            w.setInteractive(false);
            w.show();
            HeadlessSession session(&w, options);
            QSignalSpy finished(&session, &HeadlessSession::finished);
            session.start();
            QVERIFY(finished.wait(kTimeoutMs));
            QCOMPARE(finished.first().first().toInt(), named ? 0 : 1);
            QCOMPARE(readFile(plan).contains("\"mine\""), !named);
            QCOMPARE(QFile::exists(options.exportScript), named);
        }
    }
};

QTEST_MAIN(TestPlanExport)
#include "tst_planexport.moc"
