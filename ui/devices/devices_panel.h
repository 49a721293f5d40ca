// SPDX-License-Identifier: MIT
#pragma once

#include "devices/device_settings.h"
#include "devices/device_split.h"

#include <QFutureWatcher>
#include <QWidget>

#include <memory>
#include <optional>

class QLabel;
class QTableWidget;

namespace remat::ui {

class DeviceListEditor;
class DeviceMemoryBars;

/// The "devices" partitioner in the app: a device list to edit, the accelerator partitioner
/// re-run off the GUI thread on every edit, per-device memory bars, each partition's latency
/// with the critical path highlighted, and the refusal (pointing at its node) when there is one.
class DevicesPanel : public QWidget {
    Q_OBJECT
public:
    explicit DevicesPanel(QWidget* parent = nullptr);

    /// The graph to split (nullptr clears); re-partitions at once.
    void setInput(std::shared_ptr<const devices::DeviceSplitInput> input);
    void setSettings(const DeviceSettings& settings);

    DeviceListEditor* editor() const { return m_editor; }
    DeviceMemoryBars* memoryBars() const { return m_bars; }
    QTableWidget* partitionTable() const { return m_table; }
    QLabel* criticalPathLabel() const { return m_critical; }
    QLabel* errorLabel() const { return m_error; }
    /// What to do first while the device list is empty.
    QLabel* hintLabel() const { return m_hint; }
    /// The last successful split, if the last run succeeded.
    const std::optional<devices::DeviceSplit>& split() const { return m_split; }
    /// A split is being made (what is shown may be for older settings).
    bool isBusy() const { return m_splitPending || m_rerun; }

Q_SIGNALS:
    /// A new split: per node id, the index of its partition (-1: none), for colouring the canvas.
    void partitioned(const QVector<int>& partitionOfNode);
    /// The partitioner refused; `node` is the node to point at, or -1.
    void failed(const QString& message, int node);

private:
    struct Outcome {
        std::optional<devices::DeviceSplit> split;
        QString error;
        int node = -1;
    };

    void repartition();
    void showOutcome(const Outcome& outcome);
    /// Clears the split's views: the table, the bars, the critical path and the messages.
    void clearSplit();

    DeviceListEditor* m_editor;
    DeviceMemoryBars* m_bars;
    QTableWidget* m_table;
    QLabel* m_critical;
    QLabel* m_error;
    QLabel* m_hint;
    std::shared_ptr<const devices::DeviceSplitInput> m_input;
    std::optional<devices::DeviceSplit> m_split;
    QFutureWatcher<Outcome> m_watcher;
    bool m_rerun = false; ///< an edit came while a run was going: run again when it ends
    /// Until the split's result is handled: the watcher stops running before its finished signal
    /// arrives.
    bool m_splitPending = false;
};

} // namespace remat::ui
