// SPDX-License-Identifier: MIT
#pragma once

#include "budget/device_profile.h"
#include "budget/knapsack.h"
#include "budget/runtime_estimator.h"
#include "partition/min_cut_preparation.h"

#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace remat {

struct BudgetOptions {
    KnapsackSolver solver = KnapsackSolver::Dp;
    RuntimeEstimatorKind estimator = RuntimeEstimatorKind::Flops;
    std::optional<DeviceProfile> device; ///< required by the roofline estimator
};

/// Which branch of choose_saved_values_set decided (reference doc section 5.2).
enum class BudgetStage {
    KeepInputs, ///< budget 0: save the inputs only (and values pinned to the forward), recompute the rest
    RuntimeOptimal, ///< budget 1 (or nothing to trade): the plain min-cut
    MoreAggressive, ///< the min-cut without the three fusion heuristics fits
    Aggressive, ///< the min-cut with the deny-list fits, or no knapsack candidates are left
    Knapsack, ///< the knapsack chose which banned nodes to recompute
};
std::string_view stageName(BudgetStage stage);
/// The plain min-cut's bans that the stage's min-cut goes without, as a phrase; empty for the
/// stages that run the plain min-cut or none. A node they banned may be recomputed there.
std::string_view stageLiftedBans(BudgetStage stage);

/// A knapsack item: a node the aggressive min-cut still had to ban.
struct KnapsackItem {
    NodeId node;
    std::int64_t bytes;
    double memory; ///< normalised: bytes / (max - min activation bytes)
    double runtime; ///< the estimator's cost of recomputing it
};

struct BudgetDecision {
    double budget = 1;
    BudgetStage stage = BudgetStage::RuntimeOptimal;
    KnapsackResult knapsack; ///< Knapsack stage; indices into BudgetPlanner::items()
    std::vector<NodeId> recomputable; ///< Knapsack stage: the dont_ban set given to the min-cut

    /// Equal keys give the same saved values: the stage and the sorted dont_ban items.
    std::vector<int> solutionKey() const;
};

/// PyTorch's choose_saved_values_set over one prepared graph (newest rules). decide() is cheap
/// (the knapsack only); solve() runs the min-cut it asks for. Both are const and thread-safe: the
/// stages every budget shares (the three min-cuts, the items, the dp table) are computed once, on
/// first use.
class BudgetPlanner {
public:
    /// Throws remat::Error if the prepared graph does not follow the newest rules.
    BudgetPlanner(const PreparedMinCut& prepared, BudgetOptions options);
    ~BudgetPlanner();

    const PreparedMinCut& prepared() const { return *m_prepared; }
    const BudgetOptions& options() const { return m_options; }
    const RuntimeEstimator& estimator() const { return m_estimator; }

    /// Throws remat::Error with PyTorch's message for a budget outside [0, 1].
    BudgetDecision decide(double budget) const;
    MinCutSolution solve(const BudgetDecision& decision) const;
    /// solve(decision).saved, without the bans and weights that only explain it (a sweep's need).
    std::vector<NodeId> savedValues(const BudgetDecision& decision) const;

    /// For callers about to solve many knapsack decisions (a sweep): solves the aggressive network
    /// with every item recomputable once, after which each knapsack solve only adds its bans and
    /// resumes that maximum flow (same saved values, banned nodes and cut value as a fresh solve).
    void prepareForManySolves() const;

    /// (size(saved) - size(inputs)) / (size(runtime-optimal) - size(inputs)), sizes in GB as PyTorch.
    /// nullopt when the runtime-optimal cut saves no more than the inputs (max_act <= min_act):
    /// the ratio would divide by zero or less, and PyTorch returns before computing one.
    std::optional<double> memoryRatio(std::span<const NodeId> saved) const;
    double minActivationGB() const;
    double maxActivationGB() const;
    const std::vector<KnapsackItem>& items() const;
    /// Banned nodes the knapsack may not offer for recomputation: MUST_SAVE, and nodes pinned to
    /// the forward (see isPinned).
    const std::vector<NodeId>& mustSave() const;

    /// A forward node the backward needs but that must run in the forward (an in-place op of a
    /// torch 1.13 graph, such as bernoulli_): it has to be saved. Not a PyTorch rule: torch 2.x
    /// graphs are functional, and PyTorch would fail to extract such a backward.
    bool isPinned(NodeId n) const;

private:
    struct Shared;
    const Shared& optimal() const;
    const Shared& aggressive() const;
    const Shared& knapsackInputs() const;
    MinCutOptions aggressiveOptions(bool keepAllowlist) const;
    struct WarmCut {
        std::vector<NodeId> saved;
        std::int64_t value = 0;
    };
    std::optional<WarmCut> warmCut(const BudgetDecision& decision) const;
    std::optional<MinCutSolution> solveWarm(const BudgetDecision& decision) const;
    MinCutSolution solveCold(const BudgetDecision& decision) const;
    std::int64_t bytesOf(NodeId n) const;
    double sizeGB(std::span<const NodeId> nodes) const;

    const PreparedMinCut* m_prepared;
    BudgetOptions m_options;
    RuntimeEstimator m_estimator;
    std::unique_ptr<Shared> m_shared;
    std::vector<std::int64_t> m_bytes; ///< per node: its size under the newest rules
};

} // namespace remat
