// SPDX-License-Identifier: MIT
#include "budget/budget_planner.h"

#include "analysis/placement.h"
#include "analysis/tensor_size.h"
#include "budget/region_budget.h"
#include "budget/storage_aliasing.h"
#include "budget/warm_min_cut.h"
#include "graph/error.h"

#include <algorithm>
#include <future>

namespace remat {

struct BudgetPlanner::Shared {
    std::once_flag optimalOnce;
    MinCutSolution runtimeOptimal;
    double minAct = 0; // GB
    double maxAct = 0; // GB

    std::once_flag aggressiveOnce;
    MinCutSolution moreAggressive;
    MinCutSolution aggressive;
    std::optional<double> moreAggressiveRatio;
    std::optional<double> aggressiveRatio;

    std::once_flag itemsOnce;
    std::vector<KnapsackItem> items;
    std::vector<NodeId> mustSave;
    std::vector<double> memory;
    std::vector<double> runtime;
    std::unique_ptr<DpKnapsackTable> dpTable;
    std::unique_ptr<ExactKnapsackTable> exactTable;

    std::once_flag warmOnce;
    std::unique_ptr<WarmMinCut> warm;
    std::vector<std::int64_t> warmWeights;
    /// Nodes with a save edge, in graph order, and their in-vertex (SplitNodeNetwork::in).
    std::vector<std::pair<NodeId, std::size_t>> warmSaveable;
};

std::string_view stageName(BudgetStage stage)
{
    switch (stage) {
    case BudgetStage::KeepInputs:
        return "inputs only";
    case BudgetStage::RuntimeOptimal:
        return "runtime-optimal min-cut";
    case BudgetStage::MoreAggressive:
        return "min-cut without fusion heuristics";
    case BudgetStage::Aggressive:
        return "min-cut with the deny-list";
    case BudgetStage::Knapsack:
        return "knapsack";
    }
    return "";
}

std::string_view stageLiftedBans(BudgetStage stage)
{
    switch (stage) {
    case BudgetStage::KeepInputs:
    case BudgetStage::RuntimeOptimal:
        return "";
    case BudgetStage::MoreAggressive:
        return "the fusion heuristics' bans (used far apart, long fusible chains, materialized in "
               "the backward)";
    case BudgetStage::Aggressive:
    case BudgetStage::Knapsack:
        return "the fusion heuristics' bans (used far apart, long fusible chains, materialized in "
               "the backward) and the allowlist's";
    }
    return "";
}

std::vector<int> BudgetDecision::solutionKey() const
{
    std::vector<int> key {static_cast<int>(stage)};
    if (stage == BudgetStage::Knapsack) {
        key.insert(key.end(), knapsack.recomputed.begin(), knapsack.recomputed.end());
        std::sort(key.begin() + 1, key.end());
    }
    return key;
}

BudgetPlanner::BudgetPlanner(const PreparedMinCut& prepared, BudgetOptions options)
    : m_prepared(&prepared)
    , m_options(std::move(options))
    , m_estimator(prepared.joint(), m_options.estimator, m_options.device ? &*m_options.device : nullptr)
    , m_shared(std::make_unique<Shared>())
{
    if (prepared.options().rules != RuleSet::Newest)
        throw Error("the memory budget follows the torch-2.14 rules (torch 1.13 had no budget)");
    // Every plan's memory ratio sums these: read them from the nodes once.
    m_bytes.reserve(prepared.joint().size());
    for (const Node& node : prepared.joint().nodes())
        m_bytes.push_back(partitionerSizeOf(node, RuleSet::Newest));
}

std::int64_t BudgetPlanner::bytesOf(NodeId n) const
{
    return m_bytes[static_cast<std::size_t>(n)];
}

double BudgetPlanner::sizeGB(std::span<const NodeId> nodes) const
{
    std::int64_t bytes = 0;
    for (NodeId n : nodes)
        bytes += bytesOf(n);
    return static_cast<double>(bytes) / 1e9;
}

BudgetPlanner::~BudgetPlanner() = default;

MinCutOptions BudgetPlanner::aggressiveOptions(bool keepAllowlist) const
{
    MinCutOptions options = m_prepared->baseOptions();
    options.banIfUsedFarApart = options.banIfLongFusibleChains = options.banIfMaterializedBackward = false;
    if (!keepAllowlist)
        options.banIfNotInAllowlist = false;
    return options;
}

const BudgetPlanner::Shared& BudgetPlanner::optimal() const
{
    Shared& s = *m_shared;
    std::call_once(s.optimalOnce, [&] {
        s.runtimeOptimal = m_prepared->solve();
        s.minAct = sizeGB(m_prepared->classes().inputs);
        s.maxAct = sizeGB(s.runtimeOptimal.saved);
    });
    return s;
}

const BudgetPlanner::Shared& BudgetPlanner::aggressive() const
{
    Shared& s = *m_shared;
    std::call_once(s.aggressiveOnce, [&] {
        // The three min-cuts of the escalation are independent (only their ratios need the first):
        // cut them at once, so that a single plan (a what-if) waits for one cut, not three.
        const std::vector<char> none(m_prepared->joint().size(), 0);
        auto moreAggressive = std::async(
            std::launch::async, [&] { return m_prepared->solve(aggressiveOptions(true), none); });
        auto aggressive = std::async(
            std::launch::async, [&] { return m_prepared->solve(aggressiveOptions(false), none); });
        optimal();
        s.moreAggressive = moreAggressive.get();
        s.moreAggressiveRatio = memoryRatio(s.moreAggressive.saved);
        s.aggressive = aggressive.get();
        s.aggressiveRatio = memoryRatio(s.aggressive.saved);
    });
    optimal();
    return s;
}

const BudgetPlanner::Shared& BudgetPlanner::knapsackInputs() const
{
    Shared& s = *m_shared;
    aggressive();
    std::call_once(s.itemsOnce, [&] {
        if (s.maxAct <= s.minAct)
            return; // PyTorch stops before the knapsack: nothing to normalise against
        const StorageMap storages(m_prepared->graph());
        // Values aliasing an input (a primal, a view of a weight) are never candidates.
        std::vector<std::optional<StorageMap::StorageId>> inputStorages;
        for (NodeId n : m_prepared->classes().inputs)
            inputStorages.push_back(storages.storageOf(n));
        std::vector<NodeId> candidates;
        for (const auto& banned : s.aggressive.banned) {
            const NodeId n = banned.node;
            if (m_prepared->classes().dist(n) >= NodeClasses::kFar)
                continue; // not needed by the backward
            if (std::find(inputStorages.begin(), inputStorages.end(), storages.storageOf(n))
                != inputStorages.end())
                continue;
            if (m_prepared->tags()[static_cast<std::size_t>(n)] == CheckpointPolicy::MustSave || isPinned(n))
                s.mustSave.push_back(n);
            else
                candidates.push_back(n);
        }
        std::stable_sort(candidates.begin(), candidates.end(),
            [&](NodeId a, NodeId b) { return bytesOf(a) > bytesOf(b); });
        for (NodeId n : candidates) {
            const std::int64_t bytes = bytesOf(n);
            const double memory = (static_cast<double>(bytes) / 1e9) / (s.maxAct - s.minAct);
            s.items.push_back({n, bytes, memory, m_estimator.cost(n)});
            s.memory.push_back(memory);
            s.runtime.push_back(s.items.back().runtime);
        }
        // Every budget's knapsack is a lookup in a table built once (budgets never exceed 1).
        if (m_options.solver == KnapsackSolver::Dp && !s.items.empty())
            s.dpTable = std::make_unique<DpKnapsackTable>(s.memory, s.runtime, 1.0);
        if (m_options.solver == KnapsackSolver::Ilp && !s.items.empty())
            s.exactTable = std::make_unique<ExactKnapsackTable>(s.memory, s.runtime, 1.0);
    });
    return s;
}

bool BudgetPlanner::isPinned(NodeId n) const
{
    const NodeClasses& classes = m_prepared->classes();
    return classes.isRequiredFw(n) && classes.dist(n) < NodeClasses::kFar
        && m_prepared->joint().node(n).op == NodeOp::CallFunction
        && mustBeInForward(m_prepared->graph(), m_prepared->ops(), n);
}

std::optional<double> BudgetPlanner::memoryRatio(std::span<const NodeId> saved) const
{
    const Shared& s = optimal();
    if (!(s.maxAct > s.minAct))
        return std::nullopt;
    return (sizeGB(saved) - s.minAct) / (s.maxAct - s.minAct) + 0.0; // no "-0.0"
}

double BudgetPlanner::minActivationGB() const
{
    return optimal().minAct;
}

double BudgetPlanner::maxActivationGB() const
{
    return optimal().maxAct;
}

const std::vector<KnapsackItem>& BudgetPlanner::items() const
{
    return knapsackInputs().items;
}

const std::vector<NodeId>& BudgetPlanner::mustSave() const
{
    return knapsackInputs().mustSave;
}

BudgetDecision BudgetPlanner::decide(double budget) const
{
    checkMemoryBudget(budget);
    BudgetDecision d;
    d.budget = budget;
    if (budget == 0) {
        d.stage = BudgetStage::KeepInputs;
        return d;
    }
    const Shared& opt = optimal();
    if (budget == 1 || opt.maxAct <= opt.minAct) {
        d.stage = BudgetStage::RuntimeOptimal;
        return d;
    }
    const Shared& aggr = aggressive();
    if (aggr.moreAggressiveRatio && *aggr.moreAggressiveRatio < budget) {
        d.stage = BudgetStage::MoreAggressive;
        return d;
    }
    if (aggr.aggressiveRatio && *aggr.aggressiveRatio < budget) {
        d.stage = BudgetStage::Aggressive;
        return d;
    }
    const Shared& k = knapsackInputs();
    if (k.items.empty()) {
        // Nothing left for the knapsack to trade (every candidate is MUST_SAVE or pinned): 2.14
        // returns the aggressive cut, which is the knapsack's with an empty dont_ban.
        d.stage = BudgetStage::Aggressive;
        return d;
    }
    d.stage = BudgetStage::Knapsack;
    const double capacity = std::max(budget, 0.0);
    switch (m_options.solver) {
    case KnapsackSolver::Dp:
        d.knapsack = k.dpTable->solve(capacity);
        break;
    case KnapsackSolver::Greedy:
        d.knapsack = greedyKnapsack(k.memory, k.runtime, capacity);
        break;
    case KnapsackSolver::Ilp:
        d.knapsack = k.exactTable->solve(capacity);
        break;
    case KnapsackSolver::DpSlidingHirschberg:
        d.knapsack = hirschbergKnapsack(k.memory, k.runtime, capacity);
        break;
    }
    for (int i : d.knapsack.recomputed)
        d.recomputable.push_back(k.items[static_cast<std::size_t>(i)].node);
    return d;
}

void BudgetPlanner::prepareForManySolves() const
{
    Shared& s = *m_shared;
    knapsackInputs();
    std::call_once(s.warmOnce, [&] {
        if (s.items.empty())
            return;
        std::vector<char> allItems(m_prepared->joint().size(), 0);
        std::vector<int> targets;
        for (const auto& item : s.items) {
            allItems[static_cast<std::size_t>(item.node)] = 1;
            targets.push_back(2 + 2 * m_prepared->graph().position(item.node)); // SplitNodeNetwork::in
        }
        MinCutNetworkBuild build = m_prepared->buildNetwork(aggressiveOptions(false), allItems);
        s.warm = std::make_unique<WarmMinCut>(build.network.flow(), targets);
        s.warmWeights = std::move(build.solution.weights);
        const WorkGraph& graph = m_prepared->graph();
        for (NodeId n : graph.order()) {
            if (s.warmWeights[static_cast<std::size_t>(n)] >= 0)
                s.warmSaveable.emplace_back(n, static_cast<std::size_t>(2 + 2 * graph.position(n)));
        }
    });
}

std::optional<BudgetPlanner::WarmCut> BudgetPlanner::warmCut(const BudgetDecision& decision) const
{
    const Shared& s = *m_shared;
    if (!s.warm)
        return std::nullopt;
    std::vector<char> enabled; // an item keeps its ban unless the knapsack let it be recomputed
    enabled.reserve(s.items.size());
    // Flags of the knapsack's choice, cleared again right after: a sweep cuts thousands of times.
    thread_local std::vector<char> recomputable;
    recomputable.resize(m_prepared->joint().size(), 0);
    for (NodeId n : decision.recomputable)
        recomputable[static_cast<std::size_t>(n)] = 1;
    for (const auto& item : s.items)
        enabled.push_back(recomputable[static_cast<std::size_t>(item.node)] ? 0 : 1);
    for (NodeId n : decision.recomputable)
        recomputable[static_cast<std::size_t>(n)] = 0;
    const auto cut = s.warm->solve(enabled);
    if (!cut.bounded)
        return std::nullopt; // let the full solve explain the infinite path
    WarmCut result;
    result.value = cut.value;
    for (const auto& [node, in] : s.warmSaveable) {
        if (!cut.sinkSide[in] && cut.sinkSide[in + 1])
            result.saved.push_back(node);
    }
    return result;
}

std::optional<MinCutSolution> BudgetPlanner::solveWarm(const BudgetDecision& decision) const
{
    auto cut = warmCut(decision);
    if (!cut)
        return std::nullopt;
    const Shared& s = *m_shared;
    std::vector<char> recomputable(m_prepared->joint().size(), 0);
    for (NodeId n : decision.recomputable)
        recomputable[static_cast<std::size_t>(n)] = 1;
    MinCutSolution solution;
    solution.saved = std::move(cut->saved);
    for (const auto& banned : s.aggressive.banned) {
        if (!recomputable[static_cast<std::size_t>(banned.node)])
            solution.banned.push_back(banned);
    }
    solution.cutValue = cut->value;
    solution.weights = s.warmWeights;
    return solution;
}

MinCutSolution BudgetPlanner::solveCold(const BudgetDecision& decision) const
{
    std::vector<char> dontBan(m_prepared->joint().size(), 0);
    for (NodeId n : decision.recomputable)
        dontBan[static_cast<std::size_t>(n)] = 1;
    return m_prepared->solve(aggressiveOptions(false), dontBan);
}

std::vector<NodeId> BudgetPlanner::savedValues(const BudgetDecision& decision) const
{
    if (decision.stage != BudgetStage::Knapsack)
        return solve(decision).saved;
    if (auto cut = warmCut(decision))
        return std::move(cut->saved);
    return solveCold(decision).saved;
}

MinCutSolution BudgetPlanner::solve(const BudgetDecision& decision) const
{
    const auto synthetic = [&](std::vector<NodeId> saved) {
        MinCutSolution solution;
        std::sort(saved.begin(), saved.end(), [&](NodeId a, NodeId b) {
            return m_prepared->graph().position(a) < m_prepared->graph().position(b);
        });
        solution.saved = std::move(saved);
        solution.weights.assign(m_prepared->joint().size(), PartitionResult::kNoWeightEdge);
        return solution;
    };
    switch (decision.stage) {
    case BudgetStage::KeepInputs: {
        // PyTorch returns the inputs alone; values pinned to the forward must be saved as well.
        std::vector<NodeId> saved = m_prepared->classes().inputs;
        for (NodeId n : m_prepared->graph().order()) {
            if (isPinned(n))
                saved.push_back(n);
        }
        return synthetic(std::move(saved));
    }
    case BudgetStage::RuntimeOptimal:
        return optimal().runtimeOptimal;
    case BudgetStage::MoreAggressive:
        return aggressive().moreAggressive;
    case BudgetStage::Aggressive:
        return aggressive().aggressive;
    case BudgetStage::Knapsack: {
        if (auto warm = solveWarm(decision))
            return std::move(*warm);
        return solveCold(decision);
    }
    }
    return optimal().runtimeOptimal;
}

} // namespace remat
