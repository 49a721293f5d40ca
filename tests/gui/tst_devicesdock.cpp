// SPDX-License-Identifier: MIT
// The Devices dock in the main window: the open graph is split across the devices, the canvas is
// coloured by partition while the dock is shown, and a refusal selects its node.
#include "canvas/canvas_state.h"
#include "devices/device_split.h"
#include "devices/devices_dock.h"
#include "devices/devices_panel.h"
#include "document/node_selection.h"
#include "gui_test_support.h"
#include "main_window_test_support.h"
#include "window/main_window.h"

#include <QDockWidget>
#include <QElapsedTimer>
#include <QFile>
#include <QLabel>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QThreadPool>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace remat;
using namespace remat::ui;
using namespace remat::ui::test;

class TestDevicesDock : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { test::isolate(); }

    /// Busy until the split is shown, not only until its worker is done: the result arrives as a
    /// signal after the future stops running, and a headless screenshot polling isBusy() in
    /// between would show no split.
    void busyUntilTheSplitIsShown()
    {
        DevicesPanel panel;
        panel.setSettings({{80000, 80000, 80000}, devices::PartitionMode::SizeBased, 10e9, false});
        panel.setInput(std::make_shared<const devices::DeviceSplitInput>(
            std::string(REMAT_TEST_DATA_DIR "/fx_partitioner/mlp_size_based.json")));
        QThreadPool::globalInstance()->waitForDone(); // split, its signal not yet delivered
        QVERIFY(!panel.split().has_value());
        QVERIFY(panel.isBusy());
        QTRY_VERIFY_WITH_TIMEOUT(!panel.isBusy(), kTimeoutMs);
        QVERIFY(panel.split().has_value());
    }

    void canvasShowsTheSplit()
    {
        MainWindow w;
        w.setInteractive(false);
        w.show();
        w.openFile(QStringLiteral(REMAT_TEST_DATA_DIR "/fx_partitioner/mlp_size_based.json"));
        QTRY_VERIFY_WITH_TIMEOUT(
            !w.isBusy() && w.document()->graph() && w.canvas()->scene()->hasContent(), kTimeoutMs);
        DevicesDock* dock = w.devicesDock();
        dock->panel()->setSettings({{80000, 80000, 80000}, devices::PartitionMode::SizeBased, 10e9, false});
        dock->show();
        dock->raise();
        const CanvasState& state = w.canvas()->scene()->state();
        QTRY_VERIFY_WITH_TIMEOUT(
            !dock->panel()->isBusy() && dock->panel()->split().has_value() && state.showingDevices(),
            kTimeoutMs);
        const JointGraph& graph = w.document()->graph()->graph;
        QCOMPARE(state.devicePartitionOf(graph.find("fc1")), 0);
        QCOMPARE(state.devicePartitionOf(graph.find("fc2")), 1);
        QCOMPARE(state.devicePartitionOf(graph.find("fc3")), 2);

        // Enough memory in all (5 x 30 000 bytes for 120.4 KiB) but no device holds fc1's 42.5 KiB:
        // PyTorch's refusal, the node selected, the colours gone.
        dock->panel()->setSettings(
            {{30000, 30000, 30000, 30000, 30000}, devices::PartitionMode::SizeBased, 10e9, false});
        QTRY_VERIFY_WITH_TIMEOUT(
            !dock->panel()->isBusy() && !state.showingDevices() && !w.selection()->nodes().empty(),
            kTimeoutMs);
        QCOMPARE(w.selection()->nodes().front(), graph.find("fc1"));

        // Behind the Partition tab (Qt still calls it visible) or hidden, the canvas is back to
        // decisions.
        dock->panel()->setSettings({{80000, 80000, 80000}, devices::PartitionMode::SizeBased, 10e9, false});
        QTRY_VERIFY_WITH_TIMEOUT(!dock->panel()->isBusy() && state.showingDevices(), kTimeoutMs);
        w.findChild<QDockWidget*>(QStringLiteral("PartitionDock"))->raise();
        QTRY_VERIFY_WITH_TIMEOUT(!state.showingDevices(), kTimeoutMs);
        dock->raise();
        QTRY_VERIFY_WITH_TIMEOUT(state.showingDevices(), kTimeoutMs);
        dock->hide();
        QVERIFY(!state.showingDevices());
    }

    /// The graph of a TORCH_TRACE log the canvas shows is the one split: the dock read the path
    /// itself, and a folder said "cannot read: it is a folder", a log of two graphs "choose one
    /// with a compile id (--graph on the command line)" although the window had chosen.
    void theLogsChosenGraphIsSplit()
    {
        QTemporaryDir temporary;
        QVERIFY(temporary.isValid());
        const QString folder = temporary.path();
        QVERIFY(QFile::copy(QStringLiteral(REMAT_TEST_DATA_DIR "/torch_trace/graph_break.log"),
            folder + QStringLiteral("/dedicated_log_torch_trace_x1.log")));
        for (const QString& path :
            {folder, QStringLiteral(REMAT_TEST_DATA_DIR "/torch_trace/graph_break.log")}) {
            MainWindow w;
            w.setInteractive(false);
            w.show();
            w.openFile(path, QStringLiteral("1/0"));
            QTRY_VERIFY_WITH_TIMEOUT(
                !w.isBusy() && w.document()->graph() && w.canvas()->scene()->hasContent(), kTimeoutMs);
            DevicesDock* dock = w.devicesDock();
            dock->panel()->setSettings({{100000000}, devices::PartitionMode::SizeBased, 10e9, false});
            dock->show();
            dock->raise();
            QTRY_VERIFY_WITH_TIMEOUT(!dock->isBusy() && !dock->panel()->isBusy(), kTimeoutMs);
            QVERIFY2(
                dock->panel()->errorLabel()->isHidden(), qPrintable(dock->panel()->errorLabel()->text()));
            QVERIFY(dock->panel()->split().has_value());
            // Compile 1/0's split, not 0/0_1's: the canvas (21 nodes; 0/0_1 has 17) takes its colours.
            QTRY_VERIFY_WITH_TIMEOUT(w.canvas()->scene()->state().showingDevices(), kTimeoutMs);
        }
    }

    /// Opening a graph with the Devices tab behind the Partition tab splits nothing: the file is
    /// not read for the splitter and the canvas keeps the plan's colours.
    void aTabBehindAnotherSplitsNothing()
    {
        MainWindow w;
        w.setInteractive(false);
        w.show();
        DevicesDock* dock = w.devicesDock();
        dock->panel()->setSettings({{80000, 80000, 80000}, devices::PartitionMode::SizeBased, 10e9, false});
        w.openFile(QStringLiteral(REMAT_TEST_DATA_DIR "/fx_partitioner/mlp_size_based.json"));
        QTRY_VERIFY_WITH_TIMEOUT(
            !w.isBusy() && w.document()->graph() && w.canvas()->scene()->hasContent(), kTimeoutMs);
        QTest::qWait(200); // a split, had one started, would be under way
        QVERIFY(!dock->isBusy() && !dock->panel()->isBusy());
        QVERIFY(!dock->panel()->split().has_value());
        QVERIFY(!w.canvas()->scene()->state().showingDevices());
    }

    /// A joint graph's multi-output ops have no one tensor to size, so torch.fx's partitioner
    /// refuses it: the refusal names the file, says what to split instead, and shows right under
    /// the settings (it sat below the table, out of sight). The next graph starts clean.
    void aJointGraphsRefusalIsSaidInSight()
    {
        MainWindow w;
        w.setInteractive(false);
        w.resize(1600, 1000);
        w.show();
        w.openFile(test::oraclePath("gpt_n8.json"));
        QTRY_VERIFY_WITH_TIMEOUT(!w.isBusy() && w.document()->graph(), kTimeoutMs);
        DevicesDock* dock = w.devicesDock();
        dock->show();
        dock->raise();
        QLabel* error = dock->panel()->errorLabel();
        QTRY_VERIFY_WITH_TIMEOUT(!w.isBusy() && error->isVisible(), kTimeoutMs);
        QVERIFY2(error->text().contains(QStringLiteral("gpt_n8.json: Node native_layer_norm"))
                && error->text().contains(QStringLiteral("export_forward_graph.py")),
            qPrintable(error->text()));
        QVERIFY(!dock->panel()->hintLabel()->isVisible());
        auto* table = dock->panel()->findChild<QTableWidget*>();
        QVERIFY(table);
        QVERIFY(
            error->mapTo(dock->panel(), QPoint(0, 0)).y() < table->mapTo(dock->panel(), QPoint(0, 0)).y());

        w.openFile(QStringLiteral(REMAT_TEST_DATA_DIR "/fx_partitioner/mlp_size_based.json"));
        QTRY_VERIFY_WITH_TIMEOUT(!w.isBusy() && w.document()->graph()
                && w.document()->graph()->path.endsWith(QLatin1String("mlp_size_based.json"))
                && dock->panel()->hintLabel()->isVisible(),
            kTimeoutMs);
        QVERIFY(error->isHidden());
    }

    void closingWhileTheSplitterReadsTouchesNothingFreed()
    {
        // The splitter reads the file on a worker thread; the window is closed before that read
        // ends (a FIFO holds it until the test writes). The worker's failure must not reach the
        // freed dock (caught by ASan in the sanitizer suite: it wrote the dock's error text).
        QTemporaryDir dir;
        const QString graph = dir.filePath(QStringLiteral("g.json"));
        QVERIFY(
            QFile::copy(QStringLiteral(REMAT_TEST_DATA_DIR "/fx_partitioner/mlp_size_based.json"), graph));
        {
            auto w = std::make_unique<MainWindow>();
            w->setInteractive(false);
            w->show();
            w->devicesDock()->hide(); // it reads the file when shown, and only then
            w->openFile(graph);
            QTRY_VERIFY_WITH_TIMEOUT(!w->isBusy() && w->document()->graph(), kTimeoutMs);
            QVERIFY(QFile::remove(graph));
            QCOMPARE(::mkfifo(QFile::encodeName(graph).constData(), 0600), 0);
            w->devicesDock()->show();
            w->devicesDock()->raise();
            QTRY_VERIFY_WITH_TIMEOUT(w->devicesDock()->isBusy(), kTimeoutMs);
        }
        // Non-blocking: the open fails (ENXIO) until the worker has the FIFO open for reading.
        int fifo = -1;
        QElapsedTimer waited;
        waited.start();
        while ((fifo = ::open(QFile::encodeName(graph).constData(), O_WRONLY | O_NONBLOCK)) < 0
            && waited.elapsed() < kTimeoutMs)
            QTest::qWait(10);
        QVERIFY(fifo >= 0);
        const char garbage[] = "{ not a graph";
        QCOMPARE(::write(fifo, garbage, sizeof garbage - 1), qsizetype(sizeof garbage - 1));
        ::close(fifo);
        QVERIFY(QThreadPool::globalInstance()->waitForDone(kTimeoutMs));
    }
};

QTEST_MAIN(TestDevicesDock)
#include "tst_devicesdock.moc"
