// SPDX-License-Identifier: MIT
// Opening TORCH_TRACE logs in the app: a log with several joint graphs asks which one (the
// chooser), a log or folder with one opens at once (tests/data/torch_trace, made by PyTorch 2.14).
#include "document/graph_opener.h"
#include "document/trace_graph_chooser.h"
#include "gui_test_support.h"
#include "main_window_test_support.h"
#include "model/decision_text.h"
#include "panels/partition_panel.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QLineEdit>
#include <QListWidget>
#include <QSignalSpy>
#include <QTest>
#include <QTimer>
#include <QTreeView>

using namespace remat;
using namespace remat::ui;
using namespace remat::ui::test;

namespace {

QString logPath(const char* name)
{
    return QStringLiteral(REMAT_TEST_DATA_DIR "/torch_trace/") + QLatin1String(name);
}

/// Opens compiled graph `id` of log `name` in `w` and waits until it is partitioned and the window
/// has shown the outcome (the panels update after the outcome arrives).
bool openPartitioned(MainWindow& w, const char* name, const QString& id)
{
    QSignalSpy opened(&w, &MainWindow::graphOpened);
    w.openFile(logPath(name), id);
    return opened.wait(kTimeoutMs)
        && QTest::qWaitFor(
            [&] { return w.document()->outcome() && w.document()->outcome()->ok() && idle(w); }, kTimeoutMs);
}

} // namespace

class TestTraceGraphChooser : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { test::isolate(); }

    void openerAsksWhenSeveralJointGraphs()
    {
        GraphOpener opener;
        QSignalSpy choice(&opener, &GraphOpener::choiceNeeded);
        QSignalSpy opened(&opener, &GraphOpener::opened);
        opener.open(logPath("graph_break.log"));
        QVERIFY(choice.wait(kTimeoutMs));
        QCOMPARE(opened.count(), 0);
        const auto choices = choice.first().at(1).value<QList<TracedGraphChoice>>();
        QCOMPARE(choices.size(), 2);
        QCOMPARE(choices[0].id, QStringLiteral("0/0_1"));
        QCOMPARE(choices[0].label, QStringLiteral("0/0_1 — 17 nodes, PyTorch's decision recorded"));
        QCOMPARE(choices[1].id, QStringLiteral("1/0"));

        opener.open(logPath("graph_break.log"), QStringLiteral("1/0"));
        QVERIFY(opened.wait(kTimeoutMs));
        const LoadedGraphPtr graph = opened.first().first().value<LoadedGraphPtr>();
        QCOMPARE(graph->graph.size(), std::size_t(21));
        QVERIFY(graph->graph.recordedPartition("min_cut"));
    }

    /// A TORCH_LOGS capture of two compilations (stderr, printed/torch_logs) asks as a log does.
    void captureOfSeveralCompilationsAsks()
    {
        const QString capture = QStringLiteral(REMAT_TEST_DATA_DIR "/printed/torch_logs/graph_break.log");
        GraphOpener opener;
        QSignalSpy choice(&opener, &GraphOpener::choiceNeeded);
        QSignalSpy opened(&opener, &GraphOpener::opened);
        opener.open(capture);
        QVERIFY(choice.wait(kTimeoutMs));
        QCOMPARE(opened.count(), 0);
        const auto choices = choice.first().at(1).value<QList<TracedGraphChoice>>();
        QCOMPARE(choices.size(), 2);
        QCOMPARE(choices[0].label, QStringLiteral("0/0_1 — 17 nodes, PyTorch's decision recorded"));
        QCOMPARE(choices[1].label, QStringLiteral("1/0 — 21 nodes, PyTorch's decision recorded"));

        opener.open(capture, QStringLiteral("1/0"));
        QVERIFY(opened.wait(kTimeoutMs));
        const LoadedGraphPtr graph = opened.first().first().value<LoadedGraphPtr>();
        QCOMPARE(graph->graph.size(), std::size_t(21));
        QCOMPARE(graph->displayName, QStringLiteral("graph_break.log [1/0]"));
        QVERIFY(graph->graph.recordedPartition("min_cut"));
    }

    void oneJointGraphOpensAtOnce()
    {
        QTemporaryDir dir;
        QVERIFY(
            QFile::copy(logPath("sac.log"), dir.filePath(QStringLiteral("dedicated_log_torch_trace_x.log"))));
        for (const QString& path : {logPath("sac.log"), dir.path()}) {
            GraphOpener opener;
            QSignalSpy opened(&opener, &GraphOpener::opened);
            QSignalSpy failed(&opener, &GraphOpener::failed);
            opener.open(path);
            QVERIFY2(
                opened.wait(kTimeoutMs), failed.isEmpty() ? "" : qPrintable(failed.first().at(1).toString()));
            QCOMPARE(opened.first().first().value<LoadedGraphPtr>()->graph.size(), std::size_t(39));
        }
    }

    void mainWindowShowsTheChooser()
    {
        MainWindow w;
        w.show();
        QSignalSpy opened(&w, &MainWindow::graphOpened);
        QStringList offered;
        // The chooser is modal: answer it from the event loop once it shows.
        QTimer answer;
        connect(&answer, &QTimer::timeout, &w, [&] {
            auto* chooser = qobject_cast<TraceGraphChooser*>(QApplication::activeModalWidget());
            if (!chooser)
                return;
            answer.stop();
            for (int i = 0; i < chooser->list()->count(); ++i)
                offered << chooser->list()->item(i)->text();
            chooser->list()->setCurrentRow(1);
            chooser->accept();
        });
        answer.start(20);
        w.openFile(logPath("graph_break.log"));
        QTRY_VERIFY_WITH_TIMEOUT(opened.count() == 1, kTimeoutMs);
        QCOMPARE(offered.size(), 2);
        QVERIFY(offered[1].startsWith(QStringLiteral("1/0 — 21 nodes")));
        QCOMPARE(w.document()->graph()->graph.size(), std::size_t(21));
        QCOMPARE(w.document()->graph()->displayName, QStringLiteral("graph_break.log [1/0]"));
        // Each compiled graph keeps its own project (tags), not one per log.
        QVERIFY2(w.document()->projectPath().endsWith(QStringLiteral("graph_break.log.1_0.remat")),
            qPrintable(w.document()->projectPath()));
    }

    void withoutAUserTheChoiceIsAnError()
    {
        MainWindow w;
        w.setInteractive(false);
        QSignalSpy failed(&w, &MainWindow::openFailed);
        w.openFile(logPath("graph_break.log"));
        QVERIFY(failed.wait(kTimeoutMs));
        QCOMPARE(failed.first().first().toString(),
            logPath("graph_break.log")
                + QStringLiteral(": the log holds 2 joint graphs (0/0_1, 1/0): choose one with a compile id "
                                 "(--graph on the command line)"));
    }

    /// A headless run (--screenshot, --export-*, render) names the graph with --graph, as the
    /// commands do: there was no way to picture the second graph of a log without a window.
    void theCompileIdOpensThatGraph()
    {
        MainWindow w;
        w.setInteractive(false);
        QSignalSpy opened(&w, &MainWindow::graphOpened);
        w.openFile(logPath("graph_break.log"), QStringLiteral("1/0"));
        QVERIFY(opened.wait(kTimeoutMs));
        QVERIFY(w.document()->graph()->displayName.contains(QStringLiteral("1/0")));
        QSignalSpy failed(&w, &MainWindow::openFailed);
        w.openFile(logPath("graph_break.log"), QStringLiteral("7/0"));
        QVERIFY(failed.wait(kTimeoutMs));
        QVERIFY(failed.first().first().toString().contains(QStringLiteral("no compiled graph 7/0")));
        // A joint-graph file has no compiled graphs to choose from: said, not ignored.
        failed.clear();
        w.openFile(test::oraclePath("mlp3_relu.json"), QStringLiteral("1/0"));
        QVERIFY(failed.wait(kTimeoutMs));
        QVERIFY(failed.first().first().toString().contains(QStringLiteral(
            "not a TORCH_TRACE log or TORCH_LOGS capture, so it has no compiled graph 1/0 to choose")));
    }

    /// Under Inductor, PyTorch partitioned the joint graph after rewriting it (joint_graph_passes),
    /// and the log holds the graph from before. The app replays the passes that remove no-ops, as the
    /// command line does, and says so: the decision is then PyTorch's (without them, view_9 and
    /// alias_3 were saved where PyTorch saves getitem).
    void aDecisionAfterInductorsPassesSaysSo()
    {
        MainWindow w;
        QVERIFY(openAndWait(w, QStringLiteral(REMAT_TEST_DATA_DIR "/torch_trace/inductor.log")));
        const QString reference = test::shownText(w.partitionPanel()->referenceLabel());
        QVERIFY2(reference.contains(QStringLiteral("same saved set")), qPrintable(reference));
        const auto* status = w.partitionPanel()->findChild<QLabel*>(QStringLiteral("partitionStatus"));
        QVERIFY(status);
        QVERIFY2(status->text().contains(
                     QStringLiteral("Inductor's joint-graph passes, replayed: 8 no-ops removed")),
            qPrintable(status->text()));
        // An aot_eager log has nothing to say.
        QVERIFY(openAndWait(w, QStringLiteral(REMAT_TEST_DATA_DIR "/torch_trace/blocks.log")));
        QVERIFY(!test::shownText(w.partitionPanel()->referenceLabel()).contains(QStringLiteral("Inductor")));
    }

    /// A log does not name the partitioner that made its decision. Under min-cut, the panel says
    /// which partitioner saves PyTorch's set; under the default one, it compares with that decision.
    void aLogsUnnamedPartitionerIsFound()
    {
        MainWindow w;
        w.setInteractive(false);
        QVERIFY(openPartitioned(w, "default_partition.log", QStringLiteral("0/0")));
        QString reference = test::shownText(w.partitionPanel()->referenceLabel());
        QVERIFY2(reference.contains(QStringLiteral("differs: 2 only ours, 2 only PyTorch's")),
            qPrintable(reference));
        QVERIFY2(
            reference.contains(QStringLiteral("our default partitioner saves exactly PyTorch's 23 values")),
            qPrintable(reference));
        QComboBox* box = w.partitionPanel()->partitionerBox();
        box->setCurrentIndex(box->findData(QStringLiteral("default")));
        QTRY_VERIFY_WITH_TIMEOUT(w.document()->partitioner() == PartitionerKind::Default
                && w.document()->outcome()
                && w.document()->outcome()->options.partitioner == PartitionerKind::Default && idle(w),
            kTimeoutMs);
        reference = test::shownText(w.partitionPanel()->referenceLabel());
        QVERIFY2(reference.contains(QStringLiteral("(the log's decision): 23 saved")), qPrintable(reference));
        QVERIFY2(reference.contains(QStringLiteral("same saved set")), qPrintable(reference));

        // The note's link chooses that partitioner: back to min-cut, then the link.
        box->setCurrentIndex(box->findData(QStringLiteral("min-cut")));
        QTRY_VERIFY_WITH_TIMEOUT(w.document()->outcome()
                && w.document()->outcome()->options.partitioner == PartitionerKind::MinCut && idle(w),
            kTimeoutMs);
        QLabel* label = w.partitionPanel()->referenceLabel();
        QVERIFY2(
            label->text().contains(QStringLiteral("href=\"remedy:partitioner\">Use the default partitioner")),
            qPrintable(label->text()));
        Q_EMIT label->linkActivated(QStringLiteral("remedy:partitioner"));
        QTRY_VERIFY_WITH_TIMEOUT(w.document()->outcome()
                && w.document()->outcome()->options.partitioner == PartitionerKind::Default && idle(w),
            kTimeoutMs);
        QCOMPARE(box->currentData().toString(), QStringLiteral("default"));
        QVERIFY(test::shownText(label).contains(QStringLiteral("same saved set")));
    }

    /// A TORCH_LOGS capture of Inductor does not name its backend, so the passes are not replayed and
    /// the decision differs; the note's link (or the "Inductor's passes" box) replays them: PyTorch's set.
    /// Turned off on an Inductor log, the note says the replay is off.
    void theInductorReplayCanBeChosen()
    {
        MainWindow w;
        w.setInteractive(false);
        QVERIFY(openAndWait(w, QStringLiteral(REMAT_TEST_DATA_DIR "/printed/torch_logs/inductor_gpt2.log")));
        QCheckBox* passes = w.partitionPanel()->inductorPassesBox();
        QVERIFY(passes->isEnabled() && !passes->isChecked());
        QLabel* label = w.partitionPanel()->referenceLabel();
        QVERIFY2(test::shownText(label).contains(QStringLiteral("differs: 5 only ours, 3 only PyTorch's")),
            qPrintable(test::shownText(label)));
        QVERIFY2(label->text().contains(
                     QStringLiteral("href=\"remedy:inductor-passes\">Replay Inductor's passes")),
            qPrintable(label->text()));
        Q_EMIT label->linkActivated(QStringLiteral("remedy:inductor-passes"));
        QTRY_VERIFY_WITH_TIMEOUT(
            w.document()->outcome() && w.document()->outcome()->options.config.inductorJointPasses && idle(w),
            kTimeoutMs);
        QVERIFY(passes->isChecked());
        QVERIFY2(test::shownText(label).contains(QStringLiteral("same saved set")),
            qPrintable(test::shownText(label)));
        QCOMPARE(w.document()->projectData().inductorJointPasses, std::optional<bool>(true));
        // torch 1.13's rules have no Inductor: the box is off and disabled.
        QComboBox* rules = w.partitionPanel()->rulesBox();
        rules->setCurrentIndex(rules->findData(static_cast<int>(RuleSet::Torch113)));
        QTRY_VERIFY_WITH_TIMEOUT(
            w.document()->outcome() && w.document()->outcome()->options.rules == RuleSet::Torch113 && idle(w),
            kTimeoutMs);
        QVERIFY(!passes->isEnabled() && !passes->isChecked());
        QVERIFY(!w.document()->outcome()->options.config.inductorJointPasses);

        QVERIFY(openAndWait(w, QStringLiteral(REMAT_TEST_DATA_DIR "/torch_trace/inductor_gpt2.log")));
        QVERIFY(passes->isChecked()); // as the log's decision was made
        passes->setChecked(false);
        QTRY_VERIFY_WITH_TIMEOUT(w.document()->outcome()
                && !w.document()->outcome()->options.config.inductorJointPasses && idle(w),
            kTimeoutMs);
        QVERIFY2(test::shownText(label).contains(QStringLiteral("their replay is off here")),
            qPrintable(test::shownText(label)));
        QCOMPARE(w.document()->projectData().inductorJointPasses, std::optional<bool>(false));
    }

    /// A graph traced with dynamic shapes opens (it was refused), and the panel counts the SymInts
    /// the plan and PyTorch save beside the tensors.
    void aDynamicShapeGraphCountsItsSavedSymInts()
    {
        MainWindow w;
        w.setInteractive(false);
        QVERIFY(openPartitioned(w, "dynamic.log", QStringLiteral("0/1")));
        const QString summary = w.partitionPanel()->summaryText();
        QVERIFY2(summary.contains(QStringLiteral(" + 7 SymInts")), qPrintable(summary));
        const QString reference = test::shownText(w.partitionPanel()->referenceLabel());
        QVERIFY2(reference.contains(QStringLiteral("6 saved · 4.33 KiB + 7 SymInts — same saved set")),
            qPrintable(reference));
    }

    /// Two SymInt inputs that a guard made equal print the same symbol; PyTorch saves one the printed
    /// sizes do not call for. The panel and the node's reason say why, not a bare "differs".
    void aReplacedSymbolIsExplainedInThePanelAndTheReason()
    {
        MainWindow w;
        w.setInteractive(false);
        QVERIFY(openPartitioned(w, "replaced_symbol.log", QStringLiteral("0/0")));
        const QString reference = test::shownText(w.partitionPanel()->referenceLabel());
        QVERIFY2(reference.contains(QStringLiteral("differs: 0 only ours, 1 only PyTorch's")),
            qPrintable(reference));
        QVERIFY2(
            reference.contains(QStringLiteral("primals_3 and primals_5 print as Sym(s8): a guard made their "
                                              "symbols equal")),
            qPrintable(reference));
        const NodeId primals3 = w.document()->graph()->graph.find("primals_3");
        const QString reason
            = decisionReason(*w.document()->graph(), w.document()->outcome().get(), primals3);
        QVERIFY2(
            reason.contains(QStringLiteral("PyTorch's recorded min_cut partition saves it. primals_3 and "
                                           "primals_5 print as Sym(s8)")),
            qPrintable(reason));
        const NodeId primals1 = w.document()->graph()->graph.find("primals_1");
        QVERIFY(!decisionReason(*w.document()->graph(), w.document()->outcome().get(), primals1)
                     .contains(QStringLiteral("print as Sym")));
    }

    /// A log's inputs show their names in the model (parameters by qualified name) where a graph input
    /// said only "placeholder": on the canvas, in the tables, in the filter and the inspector.
    void inputsShowTheirNamesInTheModel()
    {
        MainWindow w;
        w.setInteractive(false);
        QVERIFY(openAndWait(w, logPath("inductor_gpt2.log")));
        const LoadedGraphPtr graph = w.document()->graph();
        const NodeId weight = graph->graph.find("primals_7");
        QCOMPARE(graph->label(weight).op, QStringLiteral("lm.transformer.h.0.attn.c_attn.weight"));
        QCOMPARE(graph->label(graph->graph.find("tangents_1")).op, QStringLiteral("placeholder"));
        // The saved table's filter finds the weight by its name.
        w.partitionPanel()->findChild<QLineEdit*>()->setText(QStringLiteral("c_attn.weight"));
        QAbstractItemModel* saved = w.partitionPanel()->savedTable()->model();
        QStringList rows;
        for (int r = 0; r < saved->rowCount(); ++r)
            rows << saved->index(r, DecisionTableModel::NameColumn).data().toString();
        rows.sort();
        QCOMPARE(rows, QStringList({QStringLiteral("primals_19"), QStringLiteral("primals_7")}));
    }

    /// Dropouts recomputed in checkpoint regions: the panel counts the RNG states the forward saves
    /// for them on both sides (the log's decision was not compared before), and the dropout's reason
    /// says how the backward replays it.
    void recomputedRandomOpsShowTheirRngStates()
    {
        MainWindow w;
        w.setInteractive(false);
        QVERIFY(openPartitioned(w, "rng.log", QStringLiteral("0/0")));
        const QString summary = w.partitionPanel()->summaryText();
        QVERIFY2(summary.contains(QStringLiteral(" + 2 RNG states")), qPrintable(summary));
        const QString reference = test::shownText(w.partitionPanel()->referenceLabel());
        QVERIFY2(reference.contains(QStringLiteral("13 saved · 4.33 KiB + 2 RNG states — same saved set")),
            qPrintable(reference));
        const auto& graph = w.document()->graph()->graph;
        const QString reason = decisionReason(
            *w.document()->graph(), w.document()->outcome().get(), graph.find("native_dropout"));
        QVERIFY2(reason.contains(QStringLiteral("saves the RNG state (4.94 KiB)")), qPrintable(reason));
        // The dropout a policy saves draws once: no RNG state.
        QVERIFY(!decisionReason(
            *w.document()->graph(), w.document()->outcome().get(), graph.find("native_dropout_2"))
                     .contains(QStringLiteral("RNG state")));
    }
};

QTEST_MAIN(TestTraceGraphChooser)
#include "tst_tracegraphchooser.moc"
