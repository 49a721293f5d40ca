// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/classification.h"
#include "analysis/op_categories.h"
#include "partition/fw_bw_split.h"
#include "partition/min_cut.h"
#include "partition/partition_options.h"
#include "partition/work_graph.h"

#include <memory>
#include <string>
#include <vector>

namespace remat {

/// A joint graph made ready for solve_min_cut once (dead-code elimination, CSE, the tag passes,
/// classification), so that callers such as the memory-budget search can cut it many times.
class PreparedMinCut {
public:
    PreparedMinCut(const JointGraph& graph, const PartitionOptions& options);
    // Parts refer to each other (the splitter to the work graph): the object stays where it is built.
    PreparedMinCut(const PreparedMinCut&) = delete;
    PreparedMinCut& operator=(const PreparedMinCut&) = delete;

    const JointGraph& joint() const { return *m_joint; }
    const WorkGraph& graph() const { return m_work; }
    const OpCategories& ops() const { return m_ops; }
    const NodeClasses& classes() const { return m_classes; }
    const std::vector<CheckpointPolicy>& tags() const { return m_tags; }
    const PartitionOptions& options() const { return m_options; }
    const std::vector<NodeId>& dceRemoved() const { return m_dceRemoved; }
    const std::vector<NodeId>& mergedInto() const { return m_mergedInto; }
    bool hasBackward() const { return m_hasBackward; }

    /// The options the rule set starts from (newest: config.minCut, minus the four heuristics
    /// under aggressive_recomputation).
    MinCutOptions baseOptions() const;
    /// Torch 1.13 ignores `options` and `dontBan` (its network has neither).
    MinCutSolution solve(const MinCutOptions& options, const std::vector<char>& dontBan) const;
    MinCutSolution solve() const { return solve(baseOptions(), std::vector<char>(m_joint->size(), 0)); }
    /// The rule set's network for these options, unsolved (torch 1.13 ignores the options, as solve does).
    MinCutNetworkBuild buildNetwork(const MinCutOptions& options, const std::vector<char>& dontBan) const;

    /// Fills `result` from a solution: fw/bw graphs, saved, recomputed, bans, weights and the why.
    void finish(MinCutSolution solution, PartitionResult& result) const;
    /// finish() without the why: only the fw/bw graphs, savedValues, recomputed and savedBytes.
    void split(std::vector<NodeId> saved, PartitionResult& result) const;

private:
    const JointGraph* m_joint;
    PartitionOptions m_options;
    WorkGraph m_work;
    OpCategories m_ops;
    std::vector<CheckpointPolicy> m_tags;
    std::vector<NodeId> m_dceRemoved;
    std::vector<NodeId> m_mergedInto;
    std::vector<char> m_removedByJointPasses;
    NodeClasses m_classes;
    std::vector<char> m_staticLifetime;
    bool m_hasBackward = false;
    std::vector<std::string> m_notes;
    std::unique_ptr<ForwardBackwardSplitter> m_splitter;
};

/// The effective recompute policy per node: meta["recompute"], overridden by the user's tags.
/// Throws remat::Error for a tag on an unknown node or on a graph input.
std::vector<CheckpointPolicy> effectiveTags(const JointGraph& graph, const PartitionOptions& options);

bool hasRecomputeTags(const std::vector<CheckpointPolicy>& tags);

} // namespace remat
