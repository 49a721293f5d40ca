// SPDX-License-Identifier: MIT
#include "analysis/plan_analyst.h"

#include "explain/plan_file_reader.h"
#include "explain/plan_run.h"
#include "explain/recorded_plan.h"
#include "model/background_priority.h"
#include "model/thread_handoff.h"

#include <atomic>
#include <chrono>
#include <map>

namespace remat::ui {

QString PlanChoice::label() const
{
    switch (kind) {
    case Kind::Current:
        return PlanAnalyst::tr("the current plan");
    case Kind::PyTorch:
        return PlanAnalyst::tr("PyTorch's recorded decision");
    case Kind::Budget:
        return PlanAnalyst::tr("memory budget %1").arg(budget, 0, 'g', 4);
    case Kind::OtherRules:
        return PlanAnalyst::tr("the other rule set");
    case Kind::WithoutUserTags:
        return PlanAnalyst::tr("the plan without your tags");
    case Kind::PlanFile:
        return PlanAnalyst::tr("plan file %1").arg(path.section(QLatin1Char('/'), -1));
    }
    return {};
}

/// One PlanRunner per estimator setting, for the current graph (touched on the pool's thread only).
struct PlanAnalyst::Runners {
    LoadedGraphPtr graph;
    std::map<std::string, std::unique_ptr<PlanRunner>> byEstimator;
    std::atomic<std::uint64_t> latestNode {0};
    std::atomic<std::uint64_t> latestCompare {0};

    const PlanRunner& get(const LoadedGraphPtr& wanted, const BudgetOptions& options)
    {
        if (wanted != graph) {
            byEstimator.clear();
            graph = wanted;
        }
        const std::string key = std::to_string(static_cast<int>(options.estimator)) + "|"
            + (options.device ? options.device->name : std::string());
        auto& slot = byEstimator[key];
        if (!slot)
            slot = std::make_unique<PlanRunner>(graph->graph, options);
        return *slot;
    }
};

PlanAnalyst::PlanAnalyst(QObject* parent)
    : QObject(parent)
    , m_runners(std::make_shared<Runners>())
{
    m_pool.setMaxThreadCount(1);
    m_pool.setExpiryTimeout(-1); // a warm thread: the what-if should not pay for its start
}

PlanAnalyst::~PlanAnalyst()
{
    m_pool.clear();
    m_pool.waitForDone();
}

void PlanAnalyst::finish(QPointer<PlanAnalyst> self, std::function<void(PlanAnalyst&)> function)
{
    queueCall(self, [self, function = std::move(function)] {
        if (!self)
            return;
        --self->m_pending;
        function(*self);
    });
}

void PlanAnalyst::setGraph(LoadedGraphPtr graph)
{
    m_graph = std::move(graph);
    ++m_nodeGeneration;
    ++m_compareGeneration;
    m_runners->latestNode = m_nodeGeneration;
    m_runners->latestCompare = m_compareGeneration;
    // Drop the previous graph's runners on the thread that uses them.
    startInPool(m_pool, [runners = m_runners] {
        runners->byEstimator.clear();
        runners->graph.reset();
    });
}

PlanRequest PlanAnalyst::requestFor(
    const PartitionOptions& options, bool budgetMode, const BudgetSettings& settings)
{
    PlanRequest request;
    request.options = options;
    if (budgetMode)
        request.budget = settings.budget;
    request.budgetOptions = budgetOptionsFor(settings);
    return request;
}

void PlanAnalyst::analyseNode(const PlanRequest& request, NodeId node)
{
    if (!m_graph)
        return;
    const std::uint64_t generation = ++m_nodeGeneration;
    m_runners->latestNode = generation;
    ++m_pending;
    QPointer<PlanAnalyst> self(this);
    startInPool(m_pool, [self, graph = m_graph, runners = m_runners, request, node, generation] {
        lowerThreadPriority();
        if (runners->latestNode != generation) { // the user has moved on to another node
            finish(self, [](PlanAnalyst&) {});
            return;
        }
        auto out = std::make_shared<NodeAnalysis>();
        out->generation = generation;
        out->node = node;
        out->request = request;
        const auto start = std::chrono::steady_clock::now();
        try {
            const PlanRunner& runner = runners->get(graph, request.budgetOptions);
            out->whatIf = whatIf(runner, request, node);
            const PlanRun base = runner.run(request);
            out->neighbourhood = cutNeighbourhood(runner, request, base.result, node);
        } catch (const std::exception& e) {
            out->error = QString::fromUtf8(e.what());
        }
        out->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        finish(self, [out](PlanAnalyst& analyst) {
            if (out->generation == analyst.m_nodeGeneration)
                Q_EMIT analyst.nodeAnalysed(out);
        });
    });
}

namespace {

PartitionResult resolveChoice(const PlanRunner& runner, const PlanRequest& current, const PlanChoice& choice)
{
    PlanRequest request = current;
    switch (choice.kind) {
    case PlanChoice::Kind::Current:
        break;
    case PlanChoice::Kind::PyTorch: {
        // PyTorch decided on the graph as recorded: the user's tags are what A is compared for.
        PartitionOptions untagged = current.options;
        untagged.tags.clear();
        return recordedPlanResult(runner, untagged, current.budget,
            current.budget ? budgetRecordVariant(current.budgetOptions) : std::string());
    }
    case PlanChoice::Kind::Budget:
        request.budget = choice.budget;
        break;
    case PlanChoice::Kind::OtherRules:
        request.budget.reset();
        request.options.rules
            = current.options.rules == RuleSet::Torch113 ? RuleSet::Newest : RuleSet::Torch113;
        break;
    case PlanChoice::Kind::WithoutUserTags:
        request.options.tags.clear();
        break;
    case PlanChoice::Kind::PlanFile:
        return readPlanResult(runner, choice.path.toStdString(), current.options);
    }
    return runner.run(request).result;
}

} // namespace

void PlanAnalyst::compare(const PlanRequest& current, const PlanChoice& a, const PlanChoice& b)
{
    if (!m_graph)
        return;
    const std::uint64_t generation = ++m_compareGeneration;
    m_runners->latestCompare = generation;
    ++m_pending;
    QPointer<PlanAnalyst> self(this);
    startInPool(m_pool, [self, graph = m_graph, runners = m_runners, current, a, b, generation] {
        lowerThreadPriority();
        if (runners->latestCompare != generation) {
            finish(self, [](PlanAnalyst&) {});
            return;
        }
        auto out = std::make_shared<PlanPair>();
        out->generation = generation;
        out->labelA = a.label();
        out->labelB = b.label();
        try {
            const PlanRunner& runner = runners->get(graph, current.budgetOptions);
            auto resultA = std::make_shared<const PartitionResult>(resolveChoice(runner, current, a));
            auto resultB = std::make_shared<const PartitionResult>(resolveChoice(runner, current, b));
            out->comparison
                = comparePlans(*resultA, runner.summarize(*resultA), *resultB, runner.summarize(*resultB));
            out->a = std::move(resultA);
            out->b = std::move(resultB);
        } catch (const std::exception& e) {
            out->error = QString::fromUtf8(e.what());
        }
        finish(self, [out](PlanAnalyst& analyst) {
            if (out->generation == analyst.m_compareGeneration)
                Q_EMIT analyst.compared(out);
        });
    });
}

} // namespace remat::ui
