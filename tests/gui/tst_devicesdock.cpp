// SPDX-License-Identifier: MIT
// The Devices dock in the main window: the open graph is split across the devices, the canvas is
// coloured by partition while the dock is shown, and a refusal selects its node.
#include "canvas/canvas_state.h"
#include "devices/devices_dock.h"
#include "devices/devices_panel.h"
#include "document/node_selection.h"
#include "gui_test_support.h"
#include "main_window_test_support.h"
#include "window/main_window.h"

#include <QTest>

using namespace remat;
using namespace remat::ui;
using namespace remat::ui::test;

class TestDevicesDock : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { test::isolate(); }

    void canvasShowsTheSplit()
    {
        MainWindow w;
        w.setInteractive(false);
        w.show();
        w.openFile(QStringLiteral(REMAT_TEST_DATA_DIR "/fx_partitioner/mlp_size_based.json"));
        QTRY_VERIFY_WITH_TIMEOUT(!w.isBusy() && w.document()->graph() && w.canvas()->scene()->hasContent(), kTimeoutMs);
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

        // Hidden, the canvas is back to decisions.
        dock->panel()->setSettings({{80000, 80000, 80000}, devices::PartitionMode::SizeBased, 10e9, false});
        QTRY_VERIFY_WITH_TIMEOUT(!dock->panel()->isBusy() && state.showingDevices(), kTimeoutMs);
        dock->hide();
        QVERIFY(!state.showingDevices());
    }
};

QTEST_MAIN(TestDevicesDock)
#include "tst_devicesdock.moc"
