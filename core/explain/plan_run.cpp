// SPDX-License-Identifier: MIT
#include "explain/plan_run.h"

#include "budget/budget_session.h"
#include "budget/memory_simulation.h"
#include "budget/runtime_estimator.h"
#include "budget/storage_aliasing.h"
#include "graph/error.h"
#include "partition/fw_bw_split.h"
#include "partition/inductor_joint_passes.h"
#include "partition/min_cut_preparation.h"
#include "partition/partitioner.h"
#include "partition/rng_states.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <tuple>

namespace remat {

/// The graph as one rule set partitions it, with what judging a plan on it needs.
struct PlanRunner::Preparation {
    std::unique_ptr<PreparedMinCut> prepared; ///< min-cut: DCE, CSE, classification
    std::unique_ptr<WorkGraph> plain; ///< default partition: the joint graph as it is
    std::unique_ptr<OpCategories> plainOps; ///< ... and the rules' op lists
    std::vector<NodeId> plainJointPasses; ///< ... and what Inductor's joint passes removed from it
    std::unique_ptr<StorageMap> storages;
    std::unique_ptr<MemorySimulator> simulator;

    const WorkGraph& work() const { return prepared ? prepared->graph() : *plain; }
};

struct PlanRunner::Caches {
    std::mutex mutex;
    std::map<std::tuple<PartitionerKind, RuleSet, OpListCompiler, bool, bool>, std::unique_ptr<Preparation>>
        preparations;

    // A what-if asks for its base plan again and again, and a budget session is costly to build:
    // keep the few latest of each.
    static constexpr std::size_t kKept = 3;
    struct Session {
        PlanRequest request; ///< its budget ignored: one session serves every budget
        std::shared_ptr<const BudgetSession> session;
    };
    std::vector<Session> sessions; ///< most recent last
    struct Run {
        PlanRequest request;
        std::shared_ptr<const PlanRun> run;
    };
    std::vector<Run> runs; ///< most recent last

    template <typename Entry> static void remember(std::vector<Entry>& entries, Entry entry)
    {
        if (entries.size() >= kKept)
            entries.erase(entries.begin());
        entries.push_back(std::move(entry));
    }

    /// The entry for `request`, made the most recent (a what-if's base stays while flips come and go).
    template <typename Entry>
    static const Entry* find(std::vector<Entry>& entries, const PlanRequest& request)
    {
        const auto it = std::find_if(entries.begin(), entries.end(),
            [&](const Entry& e) { return samePlanRequest(e.request, request); });
        if (it == entries.end())
            return nullptr;
        std::rotate(it, it + 1, entries.end());
        return &entries.back();
    }
};

namespace {

/// The partitioner's view of the graph does not depend on tags: one preparation per rule set.
PartitionOptions untagged(PartitionOptions options)
{
    options.tags.clear();
    return options;
}

PlanRequest sessionKey(PlanRequest request)
{
    request.budget = 1.0;
    return request;
}

} // namespace

PlanRunner::PlanRunner(const JointGraph& graph, BudgetOptions estimatorOptions)
    : m_graph(&graph)
    , m_estimatorOptions(std::move(estimatorOptions))
    , m_caches(std::make_unique<Caches>())
{
    const DeviceProfile* device = m_estimatorOptions.device ? &*m_estimatorOptions.device : nullptr;
    const RuntimeEstimator estimator(graph, m_estimatorOptions.estimator, device);
    m_runtimeUnit = std::string(estimator.unit());
    m_cost.assign(graph.size(), 0.0);
    m_floored.assign(graph.size(), false);
    for (std::size_t i = 0; i < graph.size(); ++i) {
        if (graph.nodes()[i].op == NodeOp::CallFunction) {
            m_cost[i] = estimator.cost(static_cast<NodeId>(i));
            m_floored[i] = estimator.costsTheFloor(static_cast<NodeId>(i));
        }
    }
}

PlanRunner::~PlanRunner() = default;

const PlanRunner::Preparation& PlanRunner::preparation(const PartitionOptions& options) const
{
    const bool cse = options.rules != RuleSet::Newest || options.config.cse;
    const bool jointPasses = options.rules == RuleSet::Newest && options.config.inductorJointPasses;
    const auto key = std::make_tuple(options.partitioner, options.rules, options.compiler, cse, jointPasses);
    const std::lock_guard lock(m_caches->mutex);
    auto& slot = m_caches->preparations[key];
    if (!slot) {
        if (!m_graph->sizesKnown())
            throw Error(m_graph->filePath()
                + ": the graph carries no tensor sizes, so no plan of it can be measured");
        auto p = std::make_unique<Preparation>();
        if (options.partitioner == PartitionerKind::MinCut)
            p->prepared = std::make_unique<PreparedMinCut>(*m_graph, untagged(options));
        else {
            p->plain = std::make_unique<WorkGraph>(*m_graph);
            p->plainOps = std::make_unique<OpCategories>(*m_graph, options.rules, options.compiler);
            if (jointPasses) {
                p->plainJointPasses = inductorJointPassRemovals(*p->plain, *p->plainOps);
                p->plain->applyMerges(p->plainJointPasses);
            }
        }
        p->storages = std::make_unique<StorageMap>(p->work());
        p->simulator = std::make_unique<MemorySimulator>(p->work(), *p->storages);
        slot = std::move(p);
    }
    return *slot;
}

PlanSummary PlanRunner::summarize(const PartitionResult& result) const
{
    const Preparation& p = preparation(result.options);
    PlanSummary s;
    s.savedBytes = result.savedBytes;
    s.activationBytes = distinctStorageBytes(*p.storages, result.savedValues);
    s.peakBytes = p.simulator->run(result, MemorySimulationOptions {false, false}).peakBytes;
    for (NodeId n : result.recomputed) {
        s.estimatedRuntime += m_cost[static_cast<std::size_t>(n)];
        s.flooredRecomputeCount += m_floored[static_cast<std::size_t>(n)] ? 1 : 0;
    }
    s.runtimeUnit = m_runtimeUnit;
    s.savedCount = static_cast<int>(result.savedValues.size());
    s.savedSymCount = static_cast<int>(result.savedSymNodes.size());
    s.rngStateCount = static_cast<int>(savedRngStateOps(*m_graph, result).size());
    s.recomputedCount = static_cast<int>(result.recomputed.size());
    s.bannedCount = static_cast<int>(result.banned.size());
    return s;
}

std::shared_ptr<const BudgetSession> PlanRunner::budgetSession(const PlanRequest& request) const
{
    std::shared_ptr<const BudgetSession> session;
    const PlanRequest key = sessionKey(request);
    {
        const std::lock_guard lock(m_caches->mutex);
        if (const auto* entry = Caches::find(m_caches->sessions, key))
            session = entry->session;
    }
    if (!session) {
        session = std::make_shared<const BudgetSession>(*m_graph, request.options, request.budgetOptions);
        const std::lock_guard lock(m_caches->mutex);
        Caches::remember(m_caches->sessions, Caches::Session {key, session});
    }
    return session;
}

PlanRun PlanRunner::plan(const PlanRequest& request) const
{
    PlanRun out;
    if (!request.budget) {
        out.result = partitionGraph(*m_graph, request.options);
        return out;
    }
    const auto session = budgetSession(request);
    // As PyTorch: a node's meta["memory_budget"] overrides the configured budget.
    const BudgetDecision decision = session->planner().decide(session->resolveBudget(*request.budget).budget);
    BudgetedPlan plan = session->evaluate(decision, std::nullopt);
    out.result = std::move(plan.result);
    out.budget = std::move(plan.decision);
    return out;
}

PlanRun PlanRunner::run(const PlanRequest& request) const
{
    {
        const std::lock_guard lock(m_caches->mutex);
        if (const auto* entry = Caches::find(m_caches->runs, request))
            return *entry->run;
    }
    auto run = std::make_shared<PlanRun>(plan(request));
    run->summary = summarize(run->result);
    const std::lock_guard lock(m_caches->mutex);
    Caches::remember(m_caches->runs, Caches::Run {request, run});
    return *run;
}

PartitionResult PlanRunner::planSaving(
    const PartitionOptions& options, std::span<const NodeId> saved, const std::string& source) const
{
    const Preparation& p = preparation(untagged(options));
    const WorkGraph& work = p.work();
    std::vector<NodeId> kept;
    for (NodeId n : saved) {
        if (n < 0 || static_cast<std::size_t>(n) >= m_graph->size())
            throw Error(
                source + ": saved value #" + std::to_string(n) + " is not a node of " + m_graph->filePath());
        const NodeId twin = work.resolve(n);
        if (twin == kNoNode || !work.alive(twin))
            throw Error(source + ": saved value '" + m_graph->node(n).name
                + "' is removed by dead-code elimination before partitioning");
        kept.push_back(twin);
    }
    std::sort(kept.begin(), kept.end());
    kept.erase(std::unique(kept.begin(), kept.end()), kept.end());
    PartitionResult result;
    if (p.prepared) {
        MinCutSolution solution;
        solution.saved = std::move(kept);
        solution.weights.assign(m_graph->size(), PartitionResult::kNoWeightEdge);
        p.prepared->finish(std::move(solution), result);
        result.cutValue.reset(); // no cut was solved
    } else {
        // As the default partition extracts: the joint graph without dead-code elimination or CSE.
        result.mergedInto.assign(m_graph->size(), kNoNode);
        result.removedByJointPasses
            = foldJointPassRemovals(work, p.plainJointPasses, result.mergedInto, result.notes);
        result.weights.assign(m_graph->size(), PartitionResult::kNoWeightEdge);
        result.classes = classifyNodes(work, *p.plainOps);
        splitForwardBackward(work, *p.plainOps, std::move(kept), result);
    }
    result.options = options;
    result.notes.push_back("the saved values of " + source + "; forward and backward extracted as the "
        + std::string(partitionerName(options.partitioner)) + " partitioner under the "
        + std::string(ruleSetName(options.rules)) + " rules does");
    return result;
}

} // namespace remat
