// SPDX-License-Identifier: MIT
#pragma once

#include "budget/memory_simulation.h"
#include "model/partition_outcome.h"

#include <QObject>
#include <QThreadPool>

#include <memory>

namespace remat::ui {

class BudgetSessionCache;

/// The memory timeline of one plan, for the timeline dock.
struct PlanProfile {
    std::uint64_t generation = 0;
    QString label; ///< "current plan", "B: PyTorch's min_cut", ...
    MemoryProfile profile; ///< with its timeline
    QString note; ///< how it was simulated, shown under the plot
    QString error; ///< the plan could not be simulated
    bool ok() const { return error.isEmpty(); }
};
using PlanProfilePtr = std::shared_ptr<const PlanProfile>;

/// Simulates plans' memory off the GUI thread: the forward, then the backward in autograd's order,
/// every step kept. A memory-budget plan is simulated with the session that planned it; any other
/// plan (default, min-cut under either rule set, a plan file) is re-extracted from its saved values
/// under the newest rules, as `remat-explorer memory --plan` does. Newer requests supersede older.
class PlanProfiler : public QObject {
    Q_OBJECT
public:
    explicit PlanProfiler(QObject* parent = nullptr);
    ~PlanProfiler() override;

    /// Profiles `outcome`'s plan; `slot` 0 is the current plan, 1 the comparison plan.
    void profile(LoadedGraphPtr graph, PartitionOutcomePtr outcome, int slot, const QString& label);
    /// Lists the tensors alive at `step` of the latest profile in slot 0.
    void requestLiveAt(int step);
    void clear();
    /// A simulation is queued or running.
    bool isBusy() const { return m_pending > 0; }

Q_SIGNALS:
    void profiled(int slot, remat::ui::PlanProfilePtr profile);
    void liveAt(int step, const std::vector<remat::LiveTensor>& tensors);

private:
    struct Job;
    QThreadPool m_pool;
    std::shared_ptr<BudgetSessionCache> m_sessions; ///< used on the pool's thread only
    std::shared_ptr<Job> m_current; ///< slot 0's plan, for liveAt
    std::uint64_t m_generation[2] = {0, 0};
    int m_pending = 0;
};

} // namespace remat::ui

Q_DECLARE_METATYPE(remat::ui::PlanProfilePtr)
