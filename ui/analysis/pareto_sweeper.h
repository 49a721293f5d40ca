// SPDX-License-Identifier: MIT
#pragma once

#include "budget/pareto.h"
#include "model/budget_settings.h"
#include "model/loaded_graph.h"

#include <QObject>
#include <QStringList>
#include <QThreadPool>

#include <atomic>
#include <memory>

namespace remat::ui {

class BudgetSessionCache;

/// A Pareto sweep's result as it grows, with the plans PyTorch recorded for this graph's budgets.
struct ParetoSnapshot {
    std::uint64_t generation = 0;
    ParetoResult result;
    bool finished = false;
    double sessionSeconds = 0; ///< building the budget session (before the first point)
    struct Recorded {
        double budget = 0; ///< PyTorch's memory_budget_<b>
        PlanMetrics metrics;
        bool sameAsOurs = false; ///< our plan at this budget saves the same values
        QString key; ///< the file's record: "memory_budget_0.25"
        int savedCount = 0;
        int savedOnlyByPyTorch = 0; ///< when not sameAsOurs: values ours recomputes instead
        int savedOnlyByOurs = 0;
    };
    std::vector<Recorded> recorded; ///< filled with the first snapshot
    QStringList recordedLeftOut; ///< why a record is not on the plot (a node the graph lacks)
};
using ParetoSnapshotPtr = std::shared_ptr<const ParetoSnapshot>;

/// PyTorch's recorded memory-budget plans of the session's graph that the sweep can be set beside
/// (core's measureRecordedBudgetPlans); recordings that do not fit the graph are left out.
/// `leftOut`, if given, receives why a record could not be measured.
std::vector<ParetoSnapshot::Recorded> recordedBudgetPlans(
    const BudgetSession& session, QStringList* leftOut = nullptr);

/// Sweeps memory budgets 0..1 off the GUI thread (core's sweepPareto on all cores), posting the
/// plans found so far after every round so that the plot fills in as they arrive. A new start()
/// cancels the sweep in flight; cancel() stops it at the next budget.
class ParetoSweeper : public QObject {
    Q_OBJECT
public:
    explicit ParetoSweeper(QObject* parent = nullptr);
    ~ParetoSweeper() override;

    void start(LoadedGraphPtr graph, const PartitionOptions& options, const BudgetSettings& settings);
    void cancel();
    bool isRunning() const { return m_running > 0; }
    /// The latest snapshot of the current sweep (null before the first).
    ParetoSnapshotPtr latest() const { return m_latest; }

Q_SIGNALS:
    void progress(int evaluated, int scheduled, int plans);
    void snapshot(remat::ui::ParetoSnapshotPtr snapshot);
    void failed(const QString& message);
    /// The sweep ended (finished, cancelled or failed).
    void stopped(bool cancelled);

private:
    void deliver(const ParetoSnapshotPtr& snapshot);

    QThreadPool m_pool;
    std::shared_ptr<BudgetSessionCache> m_sessions; ///< used on the pool's one thread only
    std::shared_ptr<std::atomic<bool>> m_cancel;
    std::uint64_t m_generation = 0;
    int m_running = 0;
    ParetoSnapshotPtr m_latest;
};

} // namespace remat::ui

Q_DECLARE_METATYPE(remat::ui::ParetoSnapshotPtr)
