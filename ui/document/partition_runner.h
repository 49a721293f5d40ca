// SPDX-License-Identifier: MIT
#pragma once

#include "model/partition_outcome.h"

#include <QObject>
#include <QThreadPool>

#include <optional>

namespace remat::ui {

/// Re-runs the partitioner off the GUI thread whenever asked. At most one run is in flight and
/// one waits; a newer request replaces the waiting one, and results older than the latest
/// request are dropped, so fast tagging never queues up stale work. Runs on its own thread so
/// that a long Graphviz layout never delays a re-partition.
class PartitionRunner : public QObject {
    Q_OBJECT
public:
    explicit PartitionRunner(QObject* parent = nullptr);
    ~PartitionRunner() override;

    void setGraph(LoadedGraphPtr graph);
    /// Partitions the current graph with these options (tags included).
    void request(const PartitionOptions& options);
    bool isBusy() const { return m_running; }
    std::uint64_t latestGeneration() const { return m_generation; }

Q_SIGNALS:
    void finished(remat::ui::PartitionOutcomePtr outcome);

private:
    void start(const PartitionOptions& options, std::uint64_t generation);
    void onFinished(PartitionOutcomePtr outcome);

    QThreadPool m_pool;
    LoadedGraphPtr m_graph;
    std::uint64_t m_generation = 0;
    bool m_running = false;
    std::optional<std::pair<PartitionOptions, std::uint64_t>> m_waiting;
};

} // namespace remat::ui
