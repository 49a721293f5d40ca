// SPDX-License-Identifier: MIT
// The devices panel offscreen: editing the device list re-partitions off the GUI thread; the
// table, memory bars and critical path show the split; a refusal points at its node.
#include "devices/device_list_editor.h"
#include "devices/device_memory_bars.h"
#include "devices/devices_panel.h"

#include <QCheckBox>
#include <QLabel>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>

using namespace remat;
using namespace remat::ui;

namespace {

std::shared_ptr<const devices::DeviceSplitInput> load(const char* name)
{
    return std::make_shared<const devices::DeviceSplitInput>(
        REMAT_TEST_DATA_DIR "/fx_partitioner/" + std::string(name));
}

} // namespace

class TestDevicesPanel : public QObject {
    Q_OBJECT

private slots:
private slots:
    /// A new user's first look: with no device yet the panel says what to do, and neither runs
    /// the partitioner nor reports its "No devices" refusal (which reached the status bar).
    void anEmptyDeviceListAsksForADevice()
    {
        DevicesPanel panel;
        panel.resize(700, 820);
        panel.show();
        QSignalSpy partitioned(&panel, &DevicesPanel::partitioned);
        QSignalSpy failed(&panel, &DevicesPanel::failed);
        panel.setInput(load("mlp_size_based.json"));
        QVERIFY(panel.editor()->settings().deviceBytes.empty());
        QVERIFY(!panel.isBusy());
        QVERIFY(panel.hintLabel()->isVisible());
        QVERIFY(panel.hintLabel()->text().contains(QStringLiteral("Add a device")));
        QVERIFY(panel.errorLabel()->isHidden());
        QCOMPARE(failed.count(), 0);
        QCOMPARE(partitioned.count(), 1);
        QVERIFY(partitioned.takeFirst().at(0).value<QVector<int>>().isEmpty()); // no colours

        // The first device splits the graph; without it again, the hint is back.
        panel.editor()->addDevice();
        QTRY_VERIFY_WITH_TIMEOUT(panel.split().has_value(), 10000);
        QVERIFY(panel.hintLabel()->isHidden());
        QCOMPARE(panel.partitionTable()->rowCount(), 1);
        panel.setSettings({});
        QTRY_VERIFY_WITH_TIMEOUT(!panel.isBusy() && panel.hintLabel()->isVisible(), 10000);
        QVERIFY(!panel.split().has_value());
        QCOMPARE(panel.partitionTable()->rowCount(), 0);
        QCOMPARE(failed.count(), 0);
    }

    void showsTheSplitAndRepartitionsOnEdit()
    {
        DevicesPanel panel;
        panel.resize(700, 820);
        panel.show();
        QSignalSpy partitioned(&panel, &DevicesPanel::partitioned);
        panel.setSettings({{80000, 80000, 80000}, devices::PartitionMode::SizeBased, 10e9, false});
        const auto input = load("mlp_size_based.json");
        panel.setInput(input);
        QTRY_VERIFY_WITH_TIMEOUT(panel.split().has_value(), 10000);
        QTRY_VERIFY(!partitioned.isEmpty());

        QCOMPARE(panel.partitionTable()->rowCount(), 3);
        QCOMPARE(panel.partitionTable()->item(1, 1)->text(), QStringLiteral("1"));
        QCOMPARE(panel.memoryBars()->bars().size(), 3);
        QCOMPARE(panel.memoryBars()->bars()[1].usedBytes, 78336); // fc2 and relu_1, as PyTorch counts
        QVERIFY2(panel.criticalPathLabel()->text().contains(QStringLiteral("2.80424e-06")),
            qPrintable(panel.criticalPathLabel()->text()));
        QVERIFY(panel.partitionTable()->item(0, 0)->font().bold()); // on the critical path
        const QVector<int> perNode = partitioned.takeLast().at(0).value<QVector<int>>();
        QCOMPARE(perNode.size(), static_cast<qsizetype>(input->graph().size()));
        QCOMPARE(perNode[input->graph().find("fc3")], 2);

        // Host saturation copies each partition onto an idle device: three more devices.
        partitioned.clear();
        for (int i = 0; i < 3; ++i)
            panel.editor()->addDevice();
        panel.editor()->saturateBox()->setChecked(true);
        QTRY_VERIFY_WITH_TIMEOUT(!partitioned.isEmpty() && panel.split()
                && panel.split()->result.partitions[0]->logicalDeviceIds.size() == 2,
            10000);
        QCOMPARE(panel.memoryBars()->bars().size(), 6);
        // REMAT_DEVICES_SCREENSHOT=FILE.png keeps a picture of this state for the docs.
        if (const QString shot = qEnvironmentVariable("REMAT_DEVICES_SCREENSHOT"); !shot.isEmpty()) {
            QTest::qWait(50); // let the layout take the bars' new height
            QVERIFY2(panel.grab().save(shot), qPrintable(shot));
        }
    }

    void refusalPointsAtTheNode()
    {
        DevicesPanel panel;
        QSignalSpy failed(&panel, &DevicesPanel::failed);
        const auto input = load("large_node_error.json");
        panel.setSettings({{40, 40, 40, 40, 40}, devices::PartitionMode::SizeBased, 0.0, false});
        panel.setInput(input);
        QTRY_VERIFY_WITH_TIMEOUT(!failed.isEmpty(), 10000);
        QCOMPARE(failed.first().at(0).toString(), QStringLiteral("linearis too large to fit any device"));
        QCOMPARE(failed.first().at(1).toInt(), input->graph().find("linear"));
        QVERIFY(!panel.errorLabel()->isHidden());
        QCOMPARE(panel.partitionTable()->rowCount(), 0);
    }

    void typedSizeRepartitions()
    {
        DevicesPanel panel;
        QSignalSpy failed(&panel, &DevicesPanel::failed);
        QSignalSpy partitioned(&panel, &DevicesPanel::partitioned);
        panel.setSettings({{100}, devices::PartitionMode::SizeBased, 0.0, false});
        panel.setInput(load("mlp_size_based.json"));
        QTRY_VERIFY_WITH_TIMEOUT(!failed.isEmpty(), 10000);
        QCOMPARE(
            failed.first().at(0).toString(), QStringLiteral("Devices have no enough memory for the module"));
        // Typing a size as a user would: one device that holds it all gives one partition.
        panel.editor()->table()->item(0, 0)->setText(QStringLiteral("1000000"));
        QTRY_VERIFY_WITH_TIMEOUT(!partitioned.isEmpty(), 10000);
        QCOMPARE(panel.partitionTable()->rowCount(), 1);
        // Not a number: shown, not used.
        partitioned.clear();
        failed.clear();
        panel.editor()->table()->item(0, 0)->setText(QStringLiteral("lots"));
        QTest::qWait(200);
        QVERIFY(partitioned.isEmpty() && failed.isEmpty());
        QCOMPARE(panel.editor()->settings().deviceBytes, std::vector<std::int64_t> {1000000});
    }
};

QTEST_MAIN(TestDevicesPanel)
#include "tst_devicespanel.moc"
