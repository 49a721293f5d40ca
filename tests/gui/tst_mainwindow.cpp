// SPDX-License-Identifier: MIT
// The main window end to end: open a sample, tag a node, and see the partition and the canvas change.
#include "canvas/canvas_legend.h"
#include "canvas/empty_canvas.h"
#include "canvas/find_bar.h"
#include "canvas/graph_canvas.h"
#include "canvas/graph_scene.h"
#include "canvas/graph_view.h"
#include "document/graph_document.h"
#include "document/node_selection.h"
#include "gui_test_support.h"
#include "main_window_test_support.h"
#include "panels/partition_panel.h"
#include "window/main_window.h"
#include "window/settings.h"
#include "window/tag_actions.h"

#include <QAbstractProxyModel>
#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QPainter>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalSpy>
#include <QStatusBar>
#include <QStyleOptionGraphicsItem>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>
#include <QUndoStack>

#include <algorithm>

using namespace remat;
using namespace remat::ui;
using namespace remat::ui::test;

class TestMainWindow : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { test::isolate(); }

    void opensBundledSampleWithNoArguments()
    {
        MainWindow w;
        w.setInteractive(false);
        w.resize(1500, 950); // the default size, which the 800x600 offscreen screen would shrink
        w.show();
        QSignalSpy opened(&w, &MainWindow::graphOpened);
        w.openFile(MainWindow::bundledSamplePath());
        QTRY_VERIFY_WITH_TIMEOUT(idle(w), kTimeoutMs);
        QCOMPARE(opened.count(), 1);
        QCOMPARE(w.document()->graph()->displayName, QStringLiteral("transformer_block.json"));
        QVERIFY(w.canvas()->scene()->boxCount() > 100); // small graph: every node on the canvas
        QVERIFY(w.windowTitle().contains(QStringLiteral("transformer_block.json")));

        // The first view reads: the whole U would be ~10 %, so it opens at its full width from the
        // top, labels legible, with the legend folded off the graph; a click unfolds it.
        GraphView* view = w.canvas()->view();
        QVERIFY2(view->zoom() >= 0.4, qPrintable(QString::number(view->zoom())));
        const QRectF scene = view->sceneRect();
        const QRectF visible = view->mapToScene(view->viewport()->rect()).boundingRect();
        QVERIFY(visible.top() <= scene.top() + 1 / view->zoom()); // within a pixel
        QVERIFY(visible.bottom() < scene.bottom()); // the rest is a scroll away
        CanvasLegend* legend = w.canvas()->legend();
        QVERIFY(legend->isFolded());
        const int foldedHeight = legend->height();
        QTest::mouseClick(legend, Qt::LeftButton);
        QVERIFY(!legend->isFolded());
        QVERIFY(legend->height() > foldedHeight);
    }

    /// On a 768-pixel screen the Partition dock keeps its tables in view: the plots under the
    /// canvas ran the window's whole width and left the dock a 280-pixel view, the Saved table
    /// below it, a scroll away.
    void aShortWindowShowsTheSavedTable()
    {
        QTemporaryDir dir;
        const QString path = test::copySample(dir, "transformer_block.json");
        MainWindow w;
        w.setInteractive(false);
        w.resize(1366, 740);
        w.show();
        QVERIFY(openAndWait(w, path));
        QTreeView* saved = w.partitionPanel()->savedTable();
        const QRect inWindow(saved->viewport()->mapTo(&w, QPoint(0, 0)), saved->viewport()->size());
        const int rowHeight = saved->sizeHintForRow(0);
        QVERIFY(rowHeight > 0);
        // Seen through the dock's own scroll area, which lies inside the window.
        QWidget* dockView = saved->viewport();
        while (dockView->parentWidget() && !qobject_cast<QDockWidget*>(dockView->parentWidget()))
            dockView = dockView->parentWidget();
        const QRect dockRect(dockView->mapTo(&w, QPoint(0, 0)), dockView->size());
        const int rowsInView = inWindow.intersected(dockRect).height() / rowHeight;
        QVERIFY2(rowsInView >= 10, qPrintable(QStringLiteral("%1 rows in view").arg(rowsInView)));
    }

    /// A picture shown whole sits in the room the legend leaves: Qt centres a scene that fits in
    /// the whole viewport, which put gpt_n24's last groups under the unfolded legend.
    /// A partition that fails says so in the status bar in words that fit it; the reason, a path
    /// and a sentence or two, was cut off at the bar's end. The Partition panel has it whole.
    void aFailedPartitionFitsTheStatusBar()
    {
        MainWindow w;
        w.setInteractive(false);
        w.resize(1280, 800);
        w.show();
        w.openFile(QStringLiteral(REMAT_TEST_DATA_DIR "/printed/conv_batchnorm.torch113.txt"));
        QTRY_VERIFY_WITH_TIMEOUT(!w.isBusy() && w.document()->outcome(), kTimeoutMs);
        QVERIFY(!w.document()->outcome()->ok());
        QTRY_COMPARE_WITH_TIMEOUT(w.statusBar()->currentMessage(),
            QStringLiteral("The partitioner failed; the Partition panel says why."), kTimeoutMs);
        const auto labels = w.partitionPanel()->findChildren<QLabel*>();
        QVERIFY(std::any_of(labels.begin(), labels.end(), [](const QLabel* label) {
            return test::shownText(label).contains(QStringLiteral("The partitioner failed:"))
                && test::shownText(label).contains(QStringLiteral("cannot be partitioned"));
        }));
    }

    /// The default partition of offload_mlp fails (PyTorch's too: getitem_10 is an output the
    /// backward cannot compute). The tables empty, and their tabs said "Saved (18)" still, the
    /// counts of the min-cut plan before.
    void aFailedPartitionCountsNothing()
    {
        MainWindow w;
        QVERIFY(openAndWait(w, test::oraclePath("torch2/offload_mlp_must_cpu_offload.json")));
        QVERIFY(w.document()->outcome()->ok());
        auto* tabs = w.partitionPanel()->findChild<QTabWidget*>();
        QVERIFY(tabs);
        QCOMPARE(tabs->tabText(0), QStringLiteral("Saved (18)"));
        QComboBox* box = w.partitionPanel()->partitionerBox();
        box->setCurrentIndex(box->findData(QStringLiteral("default")));
        QTRY_VERIFY_WITH_TIMEOUT(idle(w) && w.document()->outcome()
                && w.document()->outcome()->options.partitioner == PartitionerKind::Default,
            kTimeoutMs);
        QVERIFY(!w.document()->outcome()->ok());
        QCOMPARE(tabs->tabText(0), QStringLiteral("Saved"));
        QCOMPARE(tabs->tabText(1), QStringLiteral("Recomputed"));
        QCOMPARE(tabs->tabText(2), QStringLiteral("Banned"));
    }

    /// The yellow corner marks a node where our plan and PyTorch's recorded decision differ:
    /// only when the file recorded one for the plan's options. A printed graph records none, and
    /// every saved node carried the corner (as issue #11 said, and it still did).
    void theDiffersCornerNeedsARecord()
    {
        MainWindow w;
        QVERIFY(openAndWait(w, QStringLiteral(REMAT_TEST_DATA_DIR "/printed/gelu_layernorm.emulated2x.txt")));
        GraphScene* scene = w.canvas()->scene();
        QVERIFY(w.document()->outcome()->ok());
        QVERIFY(w.document()->outcome()->referenceKey.isEmpty());
        QVERIFY(!scene->state().showsReference());
        const QColor corner = scene->state().palette.referenceOnly;
        const auto cornerPixels = [&](NodeId n) {
            const QImage image = renderBox(scene, n);
            int count = 0;
            for (int y = 0; y < image.height(); ++y) {
                for (int x = 0; x < image.width(); ++x)
                    count += image.pixelColor(x, y) == corner;
            }
            return count;
        };
        const auto legendSays = [&](const QString& text) {
            const CanvasLegend* legend = w.canvas()->legend();
            for (int i = 0; i < legend->labelCount(); ++i) {
                if (legend->labelText(i) == text)
                    return true;
            }
            return false;
        };
        const auto& saved = w.document()->outcome()->result->savedValues;
        QVERIFY(!saved.empty());
        for (NodeId n : saved)
            QCOMPARE(cornerPixels(n), 0);
        QVERIFY(!legendSays(QStringLiteral("PyTorch decided otherwise")));

        // With a record for the plan's options the marks are on, and keyed in the legend.
        QVERIFY(openAndWait(w, test::oraclePath("mlp3_relu.json")));
        QVERIFY(!w.document()->outcome()->referenceKey.isEmpty());
        QVERIFY(scene->state().showsReference());
        QVERIFY(legendSays(QStringLiteral("PyTorch decided otherwise")));
        QVERIFY(legendSays(QStringLiteral("only PyTorch saves it")));
    }

    void aWholePictureSitsClearOfTheLegend()
    {
        const QString path = test::oraclePath("gpt_n24.json");
        QVERIFY2(QFile::exists(path),
            qPrintable(path + QStringLiteral(" is missing: ../shared must be beside the checkout")));
        MainWindow w;
        QVERIFY(openAndWait(w, path, QSize(1500, 950)));
        CanvasLegend* legend = w.canvas()->legend();
        GraphView* view = w.canvas()->view();
        QVERIFY(!legend->isFolded()); // the collapsed picture is legible whole
        const QRectF picture = w.canvas()->scene()->sceneRect();
        const QRect onScreen = view->mapFromScene(picture).boundingRect();
        QVERIFY2(view->viewport()->rect().adjusted(-1, -1, 1, 1).contains(onScreen), // rounding
            qPrintable(QStringLiteral("picture at (%1, %2) to (%3, %4) in a %5x%6 viewport")
                           .arg(onScreen.left())
                           .arg(onScreen.top())
                           .arg(onScreen.right())
                           .arg(onScreen.bottom())
                           .arg(view->viewport()->width())
                           .arg(view->viewport()->height())));
        // What is drawn (the picture without its blank border) ends above the legend.
        const QRectF drawn = w.canvas()->scene()->itemsBoundingRect();
        const int legendTop = legend->geometry().top() - view->viewport()->geometry().top();
        const int drawnBottom = view->mapFromScene(drawn).boundingRect().bottom();
        QVERIFY2(drawnBottom < legendTop,
            qPrintable(
                QStringLiteral("picture ends at %1, legend starts at %2").arg(drawnBottom).arg(legendTop)));

        // Zoomed in, the picture's bottom can still be scrolled out from under the legend.
        view->setZoom(1.0);
        view->verticalScrollBar()->setValue(view->verticalScrollBar()->maximum());
        QVERIFY(view->mapFromScene(drawn.bottomLeft()).y() < legendTop);
    }

    void taggingRepartitionsAndRecolours()
    {
        QTemporaryDir dir;
        const QString path = test::copySample(dir, "mlp.json");
        MainWindow w;
        QVERIFY(openAndWait(w, path));

        const NodeId n = savedComputation(w);
        QVERIFY(n != kNoNode);
        GraphScene* scene = w.canvas()->scene();
        QVERIFY(scene->state().flags(n) & Saved);
        const QImage before = renderBox(scene, n);
        const auto savedBefore = w.document()->outcome()->result->savedValues;

        // As a user would: select the node on the canvas, press the Must Recompute action.
        scene->boxForNode(n)->setSelected(true);
        QCOMPARE(w.selection()->currentNode(), n);
        QSignalSpy partitioned(w.document(), &GraphDocument::partitionChanged);
        QSignalSpy recoloured(w.canvas(), &GraphCanvas::recoloured);
        w.tagActions()->actions()[2]->trigger(); // Must Recompute
        QCOMPARE(w.document()->tagInForce(n), CheckpointPolicy::MustRecompute);
        QVERIFY(partitioned.wait(kTimeoutMs));
        QCOMPARE(recoloured.count(), 1);

        // The partition changed: the node is no longer saved.
        const auto& result = *w.document()->outcome()->result;
        QVERIFY(!result.isSaved(n));
        QVERIFY(result.savedValues != savedBefore);
        // The canvas changed: its paint state and its pixels.
        QVERIFY(!(scene->state().flags(n) & Saved));
        QCOMPARE(scene->state().tag(n), CheckpointPolicy::MustRecompute);
        QVERIFY(renderBox(scene, n) != before);
        // The partition panel followed.
        QVERIFY(w.partitionPanel()->savedModel()->rowOf(n) < 0 || !result.isSaved(n));

        // Undo brings the old partition back, redo the new one.
        w.document()->undoStack()->undo();
        QVERIFY(partitioned.wait(kTimeoutMs));
        QCOMPARE(w.document()->outcome()->result->savedValues, savedBefore);
        QVERIFY(scene->state().flags(n) & Saved);
        w.document()->undoStack()->redo();
        QVERIFY(partitioned.wait(kTimeoutMs));
        QVERIFY(!w.document()->outcome()->result->isSaved(n));
    }

    // Tagging re-partitions live: the partition tables keep the rows the user selected and where
    // they were scrolled to, and a node that moves to another list is selected there.
    void tablesKeepTheSelectionAcrossARepartition()
    {
        QTemporaryDir dir;
        const QString path = test::copySample(dir, "transformer_block.json");
        MainWindow w;
        w.resize(1400, 700); // short enough that the Saved table's 27 rows scroll
        w.show();
        QVERIFY(openAndWait(w, path));
        // Saved values PyTorch 1.13 may recompute: an add, a view, and a transpose of a weight.
        const auto& graph = w.document()->graph()->graph;
        const NodeId kept = graph.find("add");
        const NodeId alsoKept = graph.find("view_10");
        const NodeId tagged = graph.find("t_16");
        QVERIFY(kept != kNoNode && alsoKept != kNoNode && tagged != kNoNode);
        for (const NodeId n : {kept, alsoKept, tagged})
            QVERIFY(w.document()->outcome()->result->isSaved(n));

        // As a user would: pick two rows of the Saved table, then scroll it.
        PartitionPanel* panel = w.partitionPanel();
        QTreeView* saved = panel->savedTable();
        const auto proxyIndex = [&](NodeId n) {
            const auto* proxy = static_cast<const QAbstractProxyModel*>(saved->model());
            return proxy->mapFromSource(panel->savedModel()->index(panel->savedModel()->rowOf(n), 0));
        };
        saved->selectionModel()->setCurrentIndex(
            proxyIndex(kept), QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        saved->selectionModel()->select(
            proxyIndex(alsoKept), QItemSelectionModel::Select | QItemSelectionModel::Rows);
        QCOMPARE(w.selection()->currentNode(), kept);
        const auto selectedNodes = [](QTreeView* view) {
            std::vector<NodeId> nodes;
            for (const QModelIndex& index : view->selectionModel()->selectedRows())
                nodes.push_back(index.data(DecisionTableModel::NodeRole).toInt());
            std::sort(nodes.begin(), nodes.end());
            return nodes;
        };
        const std::vector<NodeId> both = selectedNodes(saved);
        QCOMPARE(both.size(), std::size_t {2});
        QScrollBar* scroll = saved->verticalScrollBar();
        QVERIFY(scroll->maximum() > 0);
        scroll->setValue(scroll->maximum());
        const int scrolled = scroll->value();

        QSignalSpy partitioned(w.document(), &GraphDocument::partitionChanged);
        QCOMPARE(w.document()->tagNodes({tagged}, CheckpointPolicy::MustRecompute), 1);
        QVERIFY(partitioned.wait(kTimeoutMs));
        QTRY_VERIFY_WITH_TIMEOUT(panel->savedModel()->rowOf(tagged) < 0, kTimeoutMs);
        QVERIFY(w.document()->outcome()->result->isSaved(kept));
        QVERIFY(w.document()->outcome()->result->isSaved(alsoKept));
        QCOMPARE(selectedNodes(saved), both);
        QCOMPARE(scroll->value(), scrolled);

        // The current node itself recomputed: it leaves the Saved list and is selected where it went.
        QCOMPARE(w.document()->tagNodes({kept}, CheckpointPolicy::MustRecompute), 1);
        QVERIFY(partitioned.wait(kTimeoutMs));
        QTRY_VERIFY_WITH_TIMEOUT(panel->savedModel()->rowOf(kept) < 0, kTimeoutMs);
        QVERIFY2(w.document()->outcome()->ok(), qPrintable(w.document()->outcome()->error));
        QVERIFY(std::ranges::count(w.document()->outcome()->result->recomputed, kept) == 1);
        QCOMPARE(selectedNodes(panel->recomputedTable()), std::vector<NodeId> {kept});
        QCOMPARE(selectedNodes(saved), std::vector<NodeId> {alsoKept});
    }

    void tagsComeBackFromTheSidecar()
    {
        QTemporaryDir dir;
        const QString path = test::copySample(dir, "mlp.json");
        NodeId n = kNoNode;
        {
            MainWindow w;
            w.setInteractive(true); // autosave on (no dialogs are expected here)
            w.openFile(path);
            QTRY_VERIFY_WITH_TIMEOUT(idle(w), kTimeoutMs);
            n = savedComputation(w);
            QSignalSpy saved(w.document(), &GraphDocument::projectSaved);
            QCOMPARE(w.document()->tagNodes({n}, CheckpointPolicy::MustRecompute), 1);
            QVERIFY(saved.wait(kTimeoutMs));
            QCOMPARE(saved.first().first().toString(), path + QStringLiteral(".remat"));
            QVERIFY(saved.first().at(1).toBool()); // a tag: the status bar says "Tags saved"
        }
        // The input itself is untouched; the sidecar holds the tag by name.
        QFile sidecar(path + QStringLiteral(".remat"));
        QVERIFY(sidecar.open(QIODevice::ReadOnly));
        QVERIFY(sidecar.readAll().contains("MUST_RECOMPUTE"));
        QFile input(path);
        QVERIFY(input.open(QIODevice::ReadOnly));
        QVERIFY(!input.readAll().contains("MUST_RECOMPUTE"));

        MainWindow again;
        again.setInteractive(false);
        again.openFile(path);
        QTRY_VERIFY_WITH_TIMEOUT(idle(again), kTimeoutMs);
        QCOMPARE(again.document()->tagInForce(n), CheckpointPolicy::MustRecompute);
        QVERIFY(!again.document()->outcome()->result->isSaved(n));
        QCOMPARE(again.canvas()->scene()->state().tag(n), CheckpointPolicy::MustRecompute);
    }

    /// Issue 9: a graph opens under the rules of the PyTorch that recorded it; a user's switch is kept.
    void aTorch2ExportOpensUnderItsRules()
    {
        const QString source = QStringLiteral(REMAT_SHARED_DIR "/oracle/torch2/hf_gpt2_train_loss.json");
        QVERIFY2(QFile::exists(source), qPrintable(source + QStringLiteral(" is missing")));
        QTemporaryDir dir;
        const QString path = test::copyInto(dir, source);
        QVERIFY(QFile::exists(path));
        {
            MainWindow w;
            w.setInteractive(true); // autosave on, into the temporary folder
            w.openFile(path);
            QTRY_VERIFY_WITH_TIMEOUT(idle(w), kTimeoutMs);
            QCOMPARE(w.document()->rules(), RuleSet::Torch214);
            QCOMPARE(w.document()->outcome()->options.rules, RuleSet::Torch214);
            QCOMPARE(
                w.partitionPanel()->rulesBox()->currentData().toInt(), static_cast<int>(RuleSet::Torch214));
            QVERIFY(
                w.document()->outcome()->onlyOurs.empty() && w.document()->outcome()->onlyReference.empty());
            QVERIFY(!QFile::exists(path + QStringLiteral(".remat"))); // the default is not a change

            QSignalSpy saved(w.document(), &GraphDocument::projectSaved);
            QComboBox* rules = w.partitionPanel()->rulesBox();
            rules->setCurrentIndex(rules->findData(static_cast<int>(RuleSet::Torch113)));
            QTRY_VERIFY_WITH_TIMEOUT(
                idle(w) && w.document()->outcome()->options.rules == RuleSet::Torch113, kTimeoutMs);
            QVERIFY(saved.wait(kTimeoutMs));
        }
        MainWindow again;
        again.setInteractive(false);
        again.openFile(path);
        QTRY_VERIFY_WITH_TIMEOUT(idle(again), kTimeoutMs);
        QCOMPARE(again.document()->rules(), RuleSet::Torch113); // the user's switch came back

        MainWindow sample;
        sample.setInteractive(false);
        sample.openFile(test::samplePath("mlp.json")); // a torch 1.13 export
        QTRY_VERIFY_WITH_TIMEOUT(idle(sample), kTimeoutMs);
        QCOMPARE(sample.document()->rules(), RuleSet::Torch113);
    }

    void taggingAGroupTagsItsNodes()
    {
        QTemporaryDir dir;
        const QString path = test::copySample(dir, "gpt_small.json");
        MainWindow w;
        QVERIFY(openAndWait(w, path));
        const auto graph = w.document()->graph();
        int block = -1;
        for (std::size_t g = 0; g < graph->groups.groups.size(); ++g) {
            if (graph->groups.groups[g].label == QStringLiteral("blocks.1"))
                block = static_cast<int>(g);
        }
        QVERIFY(block >= 0);
        // Opens as a summary: the block is one box; select it and tag.
        BoxItem* box = w.canvas()->scene()->boxForViewItem(
            w.canvas()->scene()->view()->itemOfGroup[static_cast<std::size_t>(block)]);
        QVERIFY(box && box->type() == GroupItemType);
        box->setSelected(true);
        QCOMPARE(w.selection()->currentGroup(), block);
        QSignalSpy partitioned(w.document(), &GraphDocument::partitionChanged);
        w.tagActions()->actions()[2]->trigger(); // Must Recompute
        QVERIFY(partitioned.wait(kTimeoutMs));
        int taggable = 0;
        for (NodeId n : graph->groups.group(block).members) {
            if (graph->graph.node(n).op != NodeOp::CallFunction)
                continue;
            ++taggable;
            QCOMPARE(w.document()->tagInForce(n), CheckpointPolicy::MustRecompute);
        }
        QCOMPARE(w.canvas()->scene()->state().groupStats[static_cast<std::size_t>(block)].tagged, taggable);
        QCOMPARE(w.document()->undoStack()->count(), 1); // one step for the whole group

        // Expanding the block opens its backward half beside it.
        const int partner = graph->groups.partnerOf(block);
        QVERIFY(partner >= 0);
        QCOMPARE(graph->groups.group(partner).label, QStringLiteral("∇ blocks.1"));
        w.canvas()->setExpanded(block, true);
        QTRY_VERIFY_WITH_TIMEOUT(idle(w) && w.canvas()->scene()->clusterForGroup(block), kTimeoutMs);
        QVERIFY(w.canvas()->scene()->clusterForGroup(partner));
    }

    void failedLoadShowsTheCoreMessage()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("broken.json"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(
            R"({"format": "joint-graph", "version": 1, "nodes": [ {"name": "x", "op": "nonsense"} ]})");
        file.close();
        MainWindow w;
        w.setInteractive(false);
        QSignalSpy failed(&w, &MainWindow::openFailed);
        w.openFile(path);
        QVERIFY(failed.wait(kTimeoutMs));
        const QString message = failed.first().first().toString();
        QVERIFY2(message.contains(QStringLiteral("broken.json")), qPrintable(message));
        QVERIFY(!w.document()->graph());

        w.openFile(dir.filePath(QStringLiteral("missing.json")));
        QVERIFY(failed.wait(kTimeoutMs));
        QVERIFY(failed.last().first().toString().contains(QStringLiteral("no such file")));
    }

    void findSelectsAndCentres()
    {
        MainWindow w;
        QVERIFY(openAndWait(w, test::samplePath("transformer_block.json"), QSize(1200, 800)));
        const NodeId target = w.document()->graph()->graph.find("bmm");
        QVERIFY(target != kNoNode);
        w.canvas()->view()->setZoom(1.0);
        w.canvas()->view()->centerOn(0, 0);
        w.findNext(false); // nothing typed yet: opens the bar
        QVERIFY(!w.canvas()->findBar()->isHidden());
        w.canvas()->findBar()->setText(QStringLiteral("bmm")); // typing jumps to the best match
        QCOMPARE(w.selection()->currentNode(), target);
        w.findNext(false);
        QVERIFY(w.selection()->currentNode() != target);
        QVERIFY(
            w.document()->graph()->label(w.selection()->currentNode()).name.contains(QStringLiteral("bmm")));
        w.findNext(true);
        QCOMPARE(w.selection()->currentNode(), target);
        BoxItem* box = w.canvas()->scene()->boxForNode(target);
        QVERIFY(box->isSelected());
        // An input is found by its name in the model as by its node name: "x" is primals_13
        // (samples carry extra.input_names), ahead of the nodes whose names hold an x.
        w.canvas()->findBar()->setText(QStringLiteral("x"));
        QCOMPARE(w.selection()->currentNode(), w.document()->graph()->graph.find("primals_13"));
        w.canvas()->findBar()->setText(QStringLiteral("mlp.0.w"));
        QCOMPARE(w.selection()->currentNode(), w.document()->graph()->graph.find("primals_9"));
        w.canvas()->findBar()->setText(QStringLiteral("bmm"));
        QCOMPARE(w.selection()->currentNode(), target);
        GraphView* view = w.canvas()->view();
        const QRectF visible = view->mapToScene(view->viewport()->rect()).boundingRect();
        QVERIFY2(visible.contains(box->box()), "the match is on screen");
        QVERIFY(view->zoom() >= 0.7); // readable
    }

    void largeGraphOpensAsASummaryAndExpandsOnDemand()
    {
        const QString path = test::oraclePath("gpt_n24.json");
        QVERIFY2(QFile::exists(path),
            qPrintable(path
                + QStringLiteral(" is missing: the shared folder must be beside "
                                 "the checkout (REMAT_SHARED_DIR)")));
        MainWindow w;
        QVERIFY(openAndWait(w, path));
        const auto graph = w.document()->graph();
        QVERIFY(!graph->groups.empty());
        QVERIFY2(w.canvas()->scene()->boxCount() < 80, "a summary, not 4k boxes");
        // The status bar says what was collapsed, and how to open it.
        const QString message = w.statusBar()->currentMessage();
        QVERIFY2(message.contains(QStringLiteral("%1 nodes in %2 groups. Double-click a group to open it.")
                                      .arg(graph->size())
                                      .arg(graph->groups.roots.size())),
            qPrintable(message));
        // The message fits the bar of a 1280-pixel window beside its permanent fields; why, how it
        // grouped and how to open every group are in the tooltip.
        w.resize(1280, 800);
        QTRY_COMPARE_WITH_TIMEOUT(w.statusBar()->width(), 1280, kTimeoutMs);
        int room = w.statusBar()->width();
        for (const QLabel* field : w.statusBar()->findChildren<QLabel*>(Qt::FindDirectChildrenOnly))
            room -= field->isVisible() ? field->width() : 0;
        QVERIFY2(w.statusBar()->fontMetrics().horizontalAdvance(message) < room,
            qPrintable(QStringLiteral("%1 px of text, %2 px of room: %3")
                           .arg(w.statusBar()->fontMetrics().horizontalAdvance(message))
                           .arg(room)
                           .arg(message)));
        const QString tip = w.statusBar()->toolTip();
        QVERIFY2(tip.startsWith(message) && tip.contains(QStringLiteral("View > Expand All Groups"))
                && tip.endsWith(QStringLiteral("Grouped by ") + graph->groups.method),
            qPrintable(tip));
        // Finding a node inside a collapsed group expands it.
        const NodeId n = graph->graph.find("bmm_40");
        QVERIFY(n != kNoNode);
        w.selection()->selectNode(n, NodeSelection::Origin::Search);
        QTRY_VERIFY_WITH_TIMEOUT(idle(w) && w.canvas()->scene()->boxForNode(n)
                && w.canvas()->scene()->boxForNode(n)->type() == NodeItemType,
            kTimeoutMs);
        QVERIFY(w.canvas()->scene()->boxForNode(n)->isSelected());
        // Once every group is open, the status bar no longer says the graph is collapsed.
        w.canvas()->expandAll();
        QTRY_COMPARE_WITH_TIMEOUT(w.statusBar()->currentMessage(),
            QStringLiteral("Every group expanded: %1 nodes shown").arg(graph->size()), kTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(idle(w), kTimeoutMs);

        // On the expanded picture (more items than the scene index has leaves) a click picks the
        // node under the mouse.
        GraphScene* scene = w.canvas()->scene();
        QTRY_VERIFY_WITH_TIMEOUT(!scene->isSwapping(), kTimeoutMs);
        QVERIFY2(scene->items().size() > (1 << GraphScene::kBspTreeDepth),
            qPrintable(QString::number(scene->items().size())));
        GraphView* view = w.canvas()->view();
        const NodeId picked = graph->graph.find("addmm_30");
        QVERIFY(picked != kNoNode);
        BoxItem* box = scene->boxForNode(picked);
        QVERIFY(box && box->type() == NodeItemType);
        view->setZoom(1);
        view->revealRect(box->sceneBoundingRect(), 1);
        const QPoint at = view->mapFromScene(box->sceneBoundingRect().center());
        QVERIFY2(view->viewport()->rect().contains(at), "the box is in view");
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, at);
        QTRY_COMPARE_WITH_TIMEOUT(w.selection()->nodes(), std::vector<NodeId> {picked}, kTimeoutMs);
        QVERIFY(box->isSelected());
    }

    void recolouringRepaintsOnlyWhatChanged()
    {
        QTemporaryDir dir;
        const QString path = test::copySample(dir, "mlp.json");
        MainWindow w;
        QVERIFY(openAndWait(w, path, QSize(1200, 800)));
        GraphScene* scene = w.canvas()->scene();
        const NodeId n = savedComputation(w);
        QVERIFY(n != kNoNode);
        const PartitionOutcomePtr before = w.document()->outcome();
        QTest::qWait(300); // the first picture's paints are done

        // What the viewport repaints after the new partition arrives.
        struct PaintRegions : QObject {
            QRegion painted;
            bool eventFilter(QObject*, QEvent* e) override
            {
                if (e->type() == QEvent::Paint)
                    painted += static_cast<QPaintEvent*>(e)->region();
                return false;
            }
        } regions;
        QWidget* viewport = w.canvas()->view()->viewport();
        QSignalSpy partitioned(w.document(), &GraphDocument::partitionChanged);
        viewport->installEventFilter(&regions);
        QCOMPARE(w.document()->tagNodes({n}, CheckpointPolicy::MustRecompute), 1);
        QTRY_VERIFY_WITH_TIMEOUT(idle(w) && w.document()->outcome() != before
                && w.document()->outcome()->result && !w.document()->outcome()->flags.empty(),
            kTimeoutMs);
        QTest::qWait(100);
        viewport->removeEventFilter(&regions);

        std::size_t changedBoxes = 0;
        const PartitionOutcomePtr after = w.document()->outcome();
        for (std::size_t i = 0; i < w.document()->graph()->size(); ++i) {
            const auto id = static_cast<NodeId>(i);
            changedBoxes += before->flagsOf(id) != after->flagsOf(id) && scene->boxForNode(id);
        }
        QVERIFY(changedBoxes > 0);
        const std::size_t touched = scene->lastRecolouredItems();
        QVERIFY2(touched != GraphScene::kWholeScene, "a few decisions changed: not a whole repaint");
        QVERIFY(touched >= changedBoxes);
        QVERIFY2(touched < scene->boxCount() / 2, qPrintable(QString::number(touched)));
        // The changed box is repainted. (Something else in the window still repaints the whole
        // viewport after a tag; the scene's own recolour is the part measured above.)
        const QRect box = w.canvas()->view()->mapFromScene(scene->boxForNode(n)->box()).boundingRect();
        QVERIFY(!regions.painted.isEmpty());
        if (viewport->rect().intersects(box))
            QVERIFY(regions.painted.intersects(box));
    }

    void recolouringSaysWhetherTheViewShowsIt()
    {
        // A recolour of boxes out of view repaints nothing: `--measure` must not wait for a paint.
        QTemporaryDir dir;
        const QString path = test::copySample(dir, "mlp.json");
        MainWindow w;
        QVERIFY(openAndWait(w, path, QSize(1200, 800)));
        GraphScene* scene = w.canvas()->scene();
        GraphView* view = w.canvas()->view();
        const NodeId n = savedComputation(w);
        QVERIFY(n != kNoNode && scene->boxForNode(n));
        view->setZoom(1);
        view->revealRect(scene->boxForNode(n)->sceneBoundingRect(), 1);
        const auto retag = [&](CheckpointPolicy policy) {
            const PartitionOutcomePtr before = w.document()->outcome();
            if (w.document()->tagNodes({n}, policy) != 1)
                return false;
            return QTest::qWaitFor(
                [&] {
                    const PartitionOutcomePtr after = w.document()->outcome();
                    return idle(w) && after != before && after->result
                        && after->flagsOf(n) != before->flagsOf(n);
                },
                kTimeoutMs);
        };
        QVERIFY(retag(CheckpointPolicy::MustRecompute));
        QVERIFY(scene->lastRecolouredItems() > 0);
        QVERIFY2(scene->lastRecolourInView(), "the tagged node's box is in view");

        view->hide();
        QVERIFY(retag(CheckpointPolicy::MustSave));
        QVERIFY(scene->lastRecolouredItems() > 0);
        QVERIFY2(!scene->lastRecolourInView(), "no view is shown");
    }

    void emptyCanvasOffersToOpenAGraph()
    {
        QTemporaryDir dir; // autosave writes a project file beside the graph
        const QString sample = test::copySample(dir, "mlp.json");
        Settings::addRecentFile(sample);
        MainWindow w;
        w.setInteractive(false);
        w.resize(1000, 700);
        w.show();
        EmptyCanvas* empty = w.canvas()->emptyState();
        QVERIFY(empty->isVisible());
        QVERIFY(empty->findChild<QPushButton*>(QStringLiteral("openGraph")));
        QPushButton* recent = nullptr;
        for (QPushButton* b : empty->findChildren<QPushButton*>())
            recent = b->toolTip() == sample ? b : recent; // other tests opened other mlp.json files
        QVERIFY2(recent, "the recent file is offered");
        QVERIFY(w.canvas()->view()->viewport()->rect().width() > 0);
        QCOMPARE(empty->geometry(), w.canvas()->view()->viewport()->geometry());
        recent->click();
        QTRY_VERIFY_WITH_TIMEOUT(idle(w), kTimeoutMs);
        QVERIFY(!empty->isVisible());
        QCOMPARE(w.document()->graph()->path, sample);
    }

    void selectionInsideACollapsedGroupMovesToTheGroup()
    {
        const QString path = test::oraclePath("gpt_n24.json");
        QVERIFY2(QFile::exists(path), qPrintable(path + QStringLiteral(" is missing (REMAT_SHARED_DIR)")));
        MainWindow w;
        QVERIFY(openAndWait(w, path));
        const auto graph = w.document()->graph();
        const NodeId n = graph->graph.find("bmm_40");
        QVERIFY(n != kNoNode);
        const std::vector<int> ancestry = graph->groups.ancestry(n);
        QVERIFY(!ancestry.empty());
        const int leaf = ancestry.back();
        GraphScene* scene = w.canvas()->scene();
        w.selection()->selectNode(n, NodeSelection::Origin::Search);
        QTRY_VERIFY_WITH_TIMEOUT(
            idle(w) && scene->boxForNode(n) && scene->boxForNode(n)->type() == NodeItemType, kTimeoutMs);
        QVERIFY(scene->boxForNode(n)->isSelected());

        // Collapsing the node's innermost group: the group's box is selected in its place.
        w.canvas()->setExpanded(leaf, false);
        QTRY_VERIFY_WITH_TIMEOUT(
            idle(w) && scene->boxForNode(n) && scene->boxForNode(n)->type() == GroupItemType, kTimeoutMs);
        auto* box = qgraphicsitem_cast<GroupItem*>(scene->boxForNode(n));
        QVERIFY(box);
        QCOMPARE(box->group(), leaf);
        QVERIFY(box->isSelected());
        QCOMPARE(scene->selectedItems().size(), 1);
        QVERIFY(w.selection()->nodes().empty());
        QCOMPARE(w.selection()->groups(), std::vector<int> {leaf});

        // Collapsing the outermost one too: the selection moves out again, to the outer box.
        w.canvas()->setExpanded(ancestry.front(), false);
        QTRY_VERIFY_WITH_TIMEOUT(idle(w) && scene->boxForNode(n)
                && qgraphicsitem_cast<GroupItem*>(scene->boxForNode(n))
                && qgraphicsitem_cast<GroupItem*>(scene->boxForNode(n))->group() != leaf,
            kTimeoutMs);
        QVERIFY(scene->boxForNode(n)->isSelected());
        QCOMPARE(w.selection()->groups(),
            std::vector<int> {qgraphicsitem_cast<GroupItem*>(scene->boxForNode(n))->group()});
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
