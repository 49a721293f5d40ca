// SPDX-License-Identifier: MIT
#pragma once

#include "model/budget_settings.h"
#include "model/partition_outcome.h"

#include <QObject>
#include <QThreadPool>

#include <memory>
#include <optional>

namespace remat::ui {

class BudgetSessionCache;

/// One partition to run: the options (settings and tags), and for the memory-budget partitioner
/// its settings.
struct PartitionRequest {
    PartitionOptions options;
    std::optional<BudgetSettings> budget; ///< set: plan under this memory budget (min-cut, newest rules)
};

/// Re-runs the partitioner off the GUI thread whenever asked. At most one run is in flight and
/// one waits; a newer request replaces the waiting one, and results older than the latest
/// request are dropped, so fast tagging (or dragging the budget slider) never queues up stale
/// work. Runs on its own thread so that a long Graphviz layout never delays a re-partition.
/// Memory-budget runs reuse one BudgetSession while only the budget changes.
class PartitionRunner : public QObject {
    Q_OBJECT
public:
    explicit PartitionRunner(QObject* parent = nullptr);
    ~PartitionRunner() override;

    void setGraph(LoadedGraphPtr graph);
    /// Partitions the current graph with these options (tags included).
    void request(const PartitionRequest& request);
    void request(const PartitionOptions& options) { request(PartitionRequest {options, std::nullopt}); }
    bool isBusy() const { return m_running; }
    std::uint64_t latestGeneration() const { return m_generation; }

Q_SIGNALS:
    void finished(remat::ui::PartitionOutcomePtr outcome);

private:
    void start(const PartitionRequest& request, std::uint64_t generation);
    void onFinished(PartitionOutcomePtr outcome);

    QThreadPool m_pool;
    LoadedGraphPtr m_graph;
    std::uint64_t m_generation = 0;
    bool m_running = false;
    std::optional<std::pair<PartitionRequest, std::uint64_t>> m_waiting;
    /// Touched only by the pool's one thread (runs and clears are queued there in order).
    std::shared_ptr<BudgetSessionCache> m_sessions;
};

} // namespace remat::ui
