// SPDX-License-Identifier: MIT
#pragma once

#include "explain/node_decision.h"
#include "explain/plan_run.h"

#include <optional>
#include <string>
#include <vector>

namespace remat {

/// What flipping one node's decision would do: a saved node tagged MUST_RECOMPUTE, a recomputed
/// one MUST_SAVE, the plan made again, and both plans' numbers.
struct WhatIf {
    NodeId node = kNoNode;
    NodeDecision decision = NodeDecision::Forward;
    std::string reason; ///< why it is decided so (and, when it cannot flip, why not)
    std::optional<CheckpointPolicy> flipTag; ///< nullopt: banned, an input, forward or backward only
    /// The node the flip tags: `node`, or for a getitem that its own MUST_SAVE does not save, the
    /// multi-output op it unpacks (PyTorch's min-cut bans a getitem only through its op's tag).
    NodeId flipNode = kNoNode;
    bool feasible = true; ///< false: the flipped plan failed, `error` says why
    std::string error;
    PlanSummary before; ///< deltas are after - before
    PlanSummary after; ///< equals `before` when there is no flip or it failed
    std::vector<NodeId> changedNodes; ///< OTHER nodes whose decision changed with it, graph order
    bool flipped = false; ///< the node's own decision changed (a PREFER tag may not)
};

/// Runs `base` and the flipped plan through `runner`. Throws remat::Error only when `base` itself
/// cannot be planned.
WhatIf whatIf(const PlanRunner& runner, const PlanRequest& base, NodeId node);

} // namespace remat
