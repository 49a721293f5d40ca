// SPDX-License-Identifier: MIT
#pragma once

#include "budget/budget_session.h"
#include "model/budget_settings.h"
#include "model/loaded_graph.h"

#include <cstdint>
#include <memory>

namespace remat::ui {

/// Keeps the BudgetSession of the latest graph, tags and budget options, so that a new budget
/// only re-plans: the session (DCE, CSE, tag passes, the planner's shared min-cuts) is built once
/// per graph + tags + solver/estimator, and reused for every budget. Not thread-safe: the
/// partition runner uses it from its one worker thread only.
class BudgetSessionCache {
public:
    struct Entry {
        std::shared_ptr<const BudgetSession> session;
        std::uint64_t id = 0; ///< changes whenever a new session is built
        double buildSeconds = 0; ///< when this call built it; else 0
    };

    /// The session for these inputs, built if they changed. Throws remat::Error (the graph has no
    /// backward, a tag names a graph input, the device profiles cannot be read).
    Entry get(const LoadedGraphPtr& graph, const PartitionOptions& options, const BudgetSettings& settings);
    /// Drops the session (and the graph it keeps alive).
    void clear();
    std::uint64_t buildCount() const { return m_builds; }

private:
    LoadedGraphPtr m_graph; ///< declared before the session, which refers to it, so destroyed after
    std::vector<std::pair<NodeId, CheckpointPolicy>> m_tags;
    PartitionerConfig m_config;
    BudgetSettings m_settings;
    std::shared_ptr<const BudgetSession> m_session;
    std::uint64_t m_id = 0;
    std::uint64_t m_builds = 0;
};

} // namespace remat::ui
