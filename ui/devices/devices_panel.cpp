// SPDX-License-Identifier: MIT
#include "devices/devices_panel.h"

#include "devices/device_list_editor.h"
#include "devices/device_memory_bars.h"
#include "devices/node_error.h"
#include "devices/partition_ops.h"
#include "model/thread_handoff.h"

#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QTableWidget>
#include <QVBoxLayout>

namespace remat::ui {
namespace {

QString bytesText(qint64 bytes)
{
    return QLocale().formattedDataSize(bytes, 1, QLocale::DataSizeTraditionalFormat);
}

QString idsText(const std::vector<int>& ids)
{
    QStringList parts;
    for (int id : ids)
        parts << QString::number(id);
    return parts.isEmpty() ? QStringLiteral("-") : parts.join(QLatin1Char(','));
}

} // namespace

DevicesPanel::DevicesPanel(QWidget* parent)
    : QWidget(parent)
    , m_editor(new DeviceListEditor(this))
    , m_bars(new DeviceMemoryBars(this))
    , m_table(new QTableWidget(0, 6, this))
    , m_critical(new QLabel(this))
    , m_error(new QLabel(this))
    , m_hint(new QLabel(tr("Add a device (its memory in bytes) to split the model's forward across devices, "
                           "as torch.fx's accelerator partitioner does."),
          this))
{
    m_table->setHorizontalHeaderLabels({tr("Partition"), tr("Devices"), tr("Memory"), tr("Mem latency (s)"),
        tr("Compute (s)"), tr("Overall (s)")});
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #c9302c"));
    m_error->hide();
    m_hint->setWordWrap(true);
    m_hint->setStyleSheet(QStringLiteral("color: #666"));
    m_hint->hide();
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_editor);
    // Right under the settings: below the table it sat out of sight in a short dock.
    layout->addWidget(m_hint);
    layout->addWidget(m_error);
    layout->addWidget(new QLabel(tr("Memory used per device"), this));
    layout->addWidget(m_bars);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_critical);

    connect(m_editor, &DeviceListEditor::edited, this, &DevicesPanel::repartition);
    connect(&m_watcher, &QFutureWatcher<Outcome>::finished, this, [this] {
        m_splitPending = false;
        if (std::exchange(m_rerun, false))
            repartition(); // what just finished is for settings the user has already changed
        else
            showOutcome(m_watcher.result());
    });
}

void DevicesPanel::setInput(std::shared_ptr<const devices::DeviceSplitInput> input)
{
    m_input = std::move(input);
    repartition();
}

void DevicesPanel::setSettings(const DeviceSettings& settings)
{
    m_editor->setSettings(settings);
    repartition();
}

void DevicesPanel::repartition()
{
    if (!m_input) {
        clearSplit(); // a new graph is on its way: nothing of the last one's split or refusal stays
        m_hint->hide();
        return;
    }
    if (m_watcher.isRunning()) {
        m_rerun = true; // the running split is stale; the newest settings go next
        return;
    }
    const DeviceSettings s = m_editor->settings();
    if (s.deviceBytes.empty()) {
        // Nothing to split onto: a first step to take, not the partitioner's "No devices" error.
        clearSplit();
        m_hint->show();
        Q_EMIT partitioned({});
        return;
    }
    m_hint->hide();
    auto input = m_input;
    m_splitPending = true;
    m_watcher.setFuture(runConcurrently([input, s] {
        Outcome outcome;
        try {
            const auto config = input->config(
                devices::devicesFromSizes(s.deviceBytes), s.mode, s.transferRateBytesPerSec, s.saturateHost);
            outcome.split = devices::splitAcrossDevices(*input, config);
        } catch (const devices::NodeError& e) {
            outcome.error = QString::fromStdString(e.what());
            outcome.node = e.node();
        } catch (const std::exception& e) {
            outcome.error = QString::fromStdString(e.what());
        }
        return outcome;
    }));
}

void DevicesPanel::clearSplit()
{
    m_split.reset();
    m_table->setRowCount(0);
    m_bars->setBars({});
    m_critical->clear();
    m_error->hide();
}

void DevicesPanel::showOutcome(const Outcome& outcome)
{
    m_split = outcome.split;
    m_error->setVisible(!outcome.split);
    if (!outcome.split) {
        clearSplit();
        m_error->setText(outcome.error);
        m_error->show();
        Q_EMIT failed(outcome.error, outcome.node);
        return;
    }
    const devices::DeviceSplit& split = *outcome.split;
    const auto& partitions = split.result.partitions;
    const auto deviceList = devices::devicesFromSizes(m_editor->settings().deviceBytes);
    const auto stats = devices::devicePartitionStats(partitions, deviceList);
    QVector<DeviceMemoryBars::Bar> bars;
    for (std::size_t d = 0; d < deviceList.size(); ++d) {
        const qint64 capacity = deviceList[d].availableMemBytes;
        const qint64 used = capacity - stats.memLeft[d];
        bars.push_back(
            {tr("dev %1: %2 of %3").arg(d).arg(bytesText(used), bytesText(capacity)), used, capacity});
    }
    m_bars->setBars(std::move(bars));

    m_table->setRowCount(static_cast<int>(partitions.size()));
    for (std::size_t i = 0; i < partitions.size(); ++i) {
        const devices::Partition& p = *partitions[i];
        const devices::PartitionLatency& l = split.latency[i];
        const QStringList cells {QString::number(p.id), idsText(p.logicalDeviceIds),
            bytesText(p.usedMemBytes), QString::number(l.memLatencySec, 'g', 6),
            QString::number(l.computerLatencySec, 'g', 6), QString::number(l.overallLatencySec, 'g', 6)};
        const bool critical
            = std::find(split.criticalPath.begin(), split.criticalPath.end(), static_cast<int>(i))
            != split.criticalPath.end();
        for (int c = 0; c < cells.size(); ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            if (critical) {
                QFont font = item->font();
                font.setBold(true);
                item->setFont(font);
                item->setBackground(QColor(0xfc, 0xe8, 0xb2));
            }
            m_table->setItem(static_cast<int>(i), c, item);
        }
    }
    QStringList path;
    for (int index : split.criticalPath)
        path << QString::number(partitions[static_cast<std::size_t>(index)]->id);
    m_critical->setText(tr("Critical path %1 s (partitions %2)")
                            .arg(QString::number(split.criticalPathLatencySec, 'g', 6),
                                path.isEmpty() ? QStringLiteral("-") : path.join(QStringLiteral(" → "))));

    const std::vector<int> perNode = devices::partitionIndexPerNode(split, m_input->graph().size());
    Q_EMIT partitioned(QVector<int>(perNode.begin(), perNode.end()));
}

} // namespace remat::ui
