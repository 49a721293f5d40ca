// SPDX-License-Identifier: MIT
// choose_saved_values_set under a budget: the stages, budget 1 = the plain newest min-cut, PyTorch's
// errors, per-region budgets, user tags, and the warm-started solves of a sweep.
#include "budget/budget_session.h"
#include "budget_test_support.h"
#include "graph/error.h"
#include "io/file_text.h"
#include "partition/partitioner.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace remat;

namespace {

/// The graph of `path` with meta["memory_budget"] set on the nodes `pick` accepts.
template <typename Pick> JointGraph withBudgets(const std::string& path, Pick pick)
{
    QJsonObject root = QJsonDocument::fromJson(QByteArray::fromStdString(readFileText(path))).object();
    QJsonArray nodes = root[QStringLiteral("nodes")].toArray();
    for (qsizetype i = 0; i < nodes.size(); ++i) {
        QJsonObject node = nodes[i].toObject();
        if (const auto budget = pick(node)) {
            QJsonObject meta = node[QStringLiteral("meta")].toObject();
            meta[QStringLiteral("memory_budget")] = *budget;
            node[QStringLiteral("meta")] = meta;
            nodes[i] = node;
        }
    }
    root[QStringLiteral("nodes")] = nodes;
    return loadGraphText(QJsonDocument(root).toJson().toStdString(), "budgeted.json");
}

bool isForwardOp(const QJsonObject& node)
{
    return node[QStringLiteral("op")].toString() == QLatin1String("call_function")
        && node[QStringLiteral("meta")].toObject()[QStringLiteral("partitioner_tag")].toString()
        == QLatin1String("is_forward");
}

std::vector<std::string> names(const JointGraph& graph, const std::vector<NodeId>& nodes)
{
    std::vector<std::string> out;
    for (NodeId n : nodes)
        out.push_back(graph.node(n).name);
    return out;
}

} // namespace

class TestMemoryBudget : public QObject {
    Q_OBJECT

private slots:
    void budgetOneIsThePlainMinCut_data()
    {
        QTest::addColumn<QString>("path");
        for (const char* file : {"mlp3_relu.json", "gelu_ln_mlp.json", "resnet_basic_block.json",
                 "transformer_encoder_block.json", "lstm_unrolled8.json", "gpt_n8.json"})
            QTest::newRow(file) << QString::fromStdString(testing::oraclePath(file));
        QTest::newRow("manual_ac") << QString::fromStdString(testing::testAcPath("manual_ac.json"));
    }
    void budgetOneIsThePlainMinCut()
    {
        QFETCH(QString, path);
        const JointGraph graph = loadGraphFile(path.toStdString());
        PartitionOptions newest;
        newest.rules = RuleSet::Newest;
        const PartitionResult plain = partitionGraph(graph, newest);
        const BudgetSession session(graph, {}, {});
        const BudgetedPlan plan = session.plan(1.0);
        QCOMPARE(plan.stage, BudgetStage::RuntimeOptimal);
        QCOMPARE(names(graph, plan.result.savedValues), names(graph, plain.savedValues));
        QCOMPARE(names(graph, plan.result.recomputed), names(graph, plain.recomputed));
        QCOMPARE(plan.result.cutValue, plain.cutValue);
        QCOMPARE(plan.result.banned.size(), plain.banned.size());
        // Undefined when the runtime-optimal cut saves no more than the inputs (mlp3_relu).
        if (session.planner().maxActivationGB() > session.planner().minActivationGB())
            QCOMPARE(plan.metrics.memoryRatio.value(), 1.0);
        else
            QVERIFY(!plan.metrics.memoryRatio);
    }

    void stages_data()
    {
        QTest::addColumn<double>("budget");
        QTest::addColumn<BudgetStage>("stage");
        QTest::newRow("0: inputs only") << 0.0 << BudgetStage::KeepInputs;
        QTest::newRow("0.3: knapsack") << 0.3 << BudgetStage::Knapsack;
        QTest::newRow("0.6: without heuristics") << 0.6 << BudgetStage::MoreAggressive;
        QTest::newRow("1: runtime optimal") << 1.0 << BudgetStage::RuntimeOptimal;
    }
    void stages()
    {
        QFETCH(double, budget);
        QFETCH(BudgetStage, stage);
        const JointGraph graph = loadGraphFile(testing::testAcPath("matmul_even_chain.json"));
        const BudgetSession session(graph, {}, {});
        QCOMPARE(session.planner().decide(budget).stage, stage);
        QCOMPARE(session.planner().items().size(), std::size_t {5}); // the five mm
    }

    void invalidBudgetsGivePyTorchsError_data()
    {
        QTest::addColumn<double>("budget");
        QTest::addColumn<QString>("message");
        QTest::newRow("above 1")
            << 1.5 << "The valid ranges for memory budget are 0 <= m <= 1. The provided value is 1.5";
        QTest::newRow("below 0")
            << -0.25 << "The valid ranges for memory budget are 0 <= m <= 1. The provided value is -0.25";
        QTest::newRow("integral")
            << 2.0 << "The valid ranges for memory budget are 0 <= m <= 1. The provided value is 2.0";
    }
    void invalidBudgetsGivePyTorchsError()
    {
        QFETCH(double, budget);
        QFETCH(QString, message);
        const JointGraph graph = loadGraphFile(testing::testAcPath("rematerializes_cheap.json"));
        const BudgetSession session(graph, {}, {});
        try {
            (void)session.plan(budget);
            QFAIL("no error");
        } catch (const Error& e) {
            QCOMPARE(QString::fromStdString(e.what()), message);
        }
    }

    void regionBudgetOverridesTheConfiguredOne()
    {
        const std::string path = testing::testAcPath("matmul_even_chain.json");
        const JointGraph graph = withBudgets(path, [](const QJsonObject& node) -> std::optional<double> {
            return isForwardOp(node) ? std::optional(0.2) : std::nullopt;
        });
        const BudgetSession session(graph, {}, {});
        const ResolvedBudget resolved = session.resolveBudget(1.0);
        QCOMPARE(resolved.budget, 0.2);
        QVERIFY(resolved.fromNode != kNoNode);
        QCOMPARE(session.plan(resolved.budget).metrics.activationBytes, std::int64_t {2} << 20);
    }

    void conflictingRegionBudgets()
    {
        int seen = 0;
        const JointGraph graph = withBudgets(testing::testAcPath("matmul_even_chain.json"),
            [&](const QJsonObject& node) -> std::optional<double> {
                if (!isForwardOp(node))
                    return std::nullopt;
                return ++seen == 3 ? 0.7 : 0.2;
            });
        const BudgetSession session(graph, {}, {});
        try {
            (void)session.resolveBudget(1.0);
            QFAIL("no error");
        } catch (const Error& e) {
            QVERIFY2(QString::fromStdString(e.what()).contains("conflicting budgets"), e.what());
        }
    }

    void regionBudgetMustCoverTheForward()
    {
        int seen = 0;
        const JointGraph graph = withBudgets(testing::testAcPath("matmul_even_chain.json"),
            [&](const QJsonObject& node) -> std::optional<double> {
                if (!isForwardOp(node) || ++seen > 4)
                    return std::nullopt;
                return 0.2;
            });
        const BudgetSession session(graph, {}, {});
        try {
            (void)session.resolveBudget(1.0);
            QFAIL("no error");
        } catch (const Error& e) {
            QVERIFY2(QString::fromStdString(e.what()).contains("must cover the entire forward"), e.what());
        }
    }

    void mustSaveIsNeverOffered()
    {
        const JointGraph graph = loadGraphFile(testing::testAcPath("matmul_even_chain.json"));
        PartitionOptions options;
        options.tags.push_back({graph.find("mm_2"), CheckpointPolicy::MustSave});
        const BudgetSession session(graph, options, {});
        QCOMPARE(names(graph, session.planner().mustSave()), (std::vector<std::string> {"mm_2"}));
        QCOMPARE(session.planner().items().size(), std::size_t {4});
        const BudgetedPlan plan = session.plan(0.1);
        QCOMPARE(plan.stage, BudgetStage::Knapsack);
        QVERIFY(plan.result.isSaved(graph.find("mm_2")));
    }

    void mustRecomputeIsRecomputedAtEveryBudget()
    {
        const JointGraph graph = loadGraphFile(testing::testAcPath("matmul_even_chain.json"));
        PartitionOptions options;
        options.tags.push_back({graph.find("mm_1"), CheckpointPolicy::MustRecompute});
        const BudgetSession session(graph, options, {});
        for (double budget : {0.1, 0.4, 0.7, 1.0}) {
            const BudgetedPlan plan = session.plan(budget);
            QVERIFY(!plan.result.isSaved(graph.find("mm_1")));
            const auto& r = plan.result.recomputed;
            QVERIFY(std::find(r.begin(), r.end(), graph.find("mm_1")) != r.end());
        }
    }

    void checkpointBoundariesAreSaved()
    {
        // cleanup_recompute_tags: the output of region 1 feeds region 2, so it is MUST_SAVE.
        const JointGraph graph = loadGraphFile(testing::testAcPath("manual_ac.json"));
        const BudgetSession session(graph, {}, {});
        const NodeId boundary = graph.find("mm_3");
        QCOMPARE(session.prepared().tags()[static_cast<std::size_t>(boundary)], CheckpointPolicy::MustSave);
        for (double budget : {0.01, 0.5, 1.0})
            QVERIFY(session.plan(budget).result.isSaved(boundary));
    }

    void inPlaceRandomOpsStayInTheForward()
    {
        // torch 1.13's dropout is an in-place bernoulli_: it cannot be recomputed, so even budget 0
        // saves the masks (PyTorch would fail to extract this backward).
        const JointGraph graph = loadGraphFile(testing::oraclePath("gpt_n2.json"));
        const BudgetSession session(graph, {}, {});
        for (double budget : {0.0, 0.05, 0.3}) {
            const BudgetedPlan plan = session.plan(budget);
            for (NodeId n : session.prepared().graph().order()) {
                if (graph.opOf(n).packet == "aten.bernoulli_")
                    QVERIFY(plan.result.isSaved(n) || !session.prepared().classes().isRequiredFw(n));
            }
        }
    }

    void warmSolvesEqualFreshOnes_data()
    {
        QTest::addColumn<QString>("path");
        QTest::newRow("gpt_n2") << QString::fromStdString(testing::oraclePath("gpt_n2.json"));
        QTest::newRow("lstm") << QString::fromStdString(testing::oraclePath("lstm_unrolled8.json"));
        QTest::newRow("uneven chain")
            << QString::fromStdString(testing::testAcPath("matmul_uneven_chain_random.json"));
    }
    void warmSolvesEqualFreshOnes()
    {
        QFETCH(QString, path);
        const JointGraph graph = loadGraphFile(path.toStdString());
        const BudgetSession warm(graph, {}, {});
        const BudgetSession fresh(graph, {}, {});
        warm.planner().prepareForManySolves();
        int knapsacks = 0;
        for (double budget = 0.0; budget <= 1.0; budget += 0.0371) {
            const BudgetDecision decision = warm.planner().decide(budget);
            knapsacks += decision.stage == BudgetStage::Knapsack;
            const MinCutSolution a = warm.planner().solve(decision);
            const MinCutSolution b = fresh.planner().solve(fresh.planner().decide(budget));
            QCOMPARE(names(graph, a.saved), names(graph, b.saved));
            QCOMPARE(a.cutValue, b.cutValue);
            QCOMPARE(a.banned.size(), b.banned.size());
            for (std::size_t i = 0; i < a.banned.size(); ++i) {
                QCOMPARE(a.banned[i].node, b.banned[i].node);
                QCOMPARE(a.banned[i].reason, b.banned[i].reason);
            }
        }
        QVERIFY(knapsacks > 0);
    }

    void outlinesMatchFullPlans_data() { warmSolvesEqualFreshOnes_data(); }
    void outlinesMatchFullPlans()
    {
        // What a sweep keeps of a plan (warm cuts, buffers reused from plan to plan) is what a
        // fresh, full plan says, in whatever order the budgets come.
        QFETCH(QString, path);
        const JointGraph graph = loadGraphFile(path.toStdString());
        const BudgetSession sweep(graph, {}, {});
        const BudgetSession fresh(graph, {}, {});
        sweep.planner().prepareForManySolves();
        constexpr int kBudgets = 29;
        for (int k = 0; k < kBudgets; ++k) {
            const double budget = static_cast<double>((k * 11) % kBudgets) / (kBudgets - 1);
            const PlanOutline outline = sweep.outline(sweep.planner().decide(budget), true);
            const BudgetedPlan plan = fresh.plan(budget, MemorySimulationOptions {false, false});
            QCOMPARE(static_cast<int>(outline.stage), static_cast<int>(plan.stage));
            QCOMPARE(names(graph, outline.saved), names(graph, plan.result.savedValues));
            QCOMPARE(outline.recomputedCount, static_cast<int>(plan.result.recomputed.size()));
            QCOMPARE(outline.metrics.memoryRatio, plan.metrics.memoryRatio);
            QCOMPARE(outline.metrics.activationBytes, plan.metrics.activationBytes);
            QCOMPARE(outline.metrics.savedBytes, plan.metrics.savedBytes);
            QCOMPARE(outline.metrics.estimatedRuntime, plan.metrics.estimatedRuntime);
            QCOMPARE(outline.metrics.peakBytes, plan.metrics.peakBytes);
            QCOMPARE(outline.peakNode, plan.memory->peakNode);
            QCOMPARE(static_cast<int>(outline.peakPhase), static_cast<int>(plan.memory->peakPhase));
        }
    }

    void otherSolversFitTheBudget_data()
    {
        QTest::addColumn<KnapsackSolver>("solver");
        QTest::newRow("greedy") << KnapsackSolver::Greedy;
        QTest::newRow("ilp") << KnapsackSolver::Ilp;
    }
    void otherSolversFitTheBudget()
    {
        QFETCH(KnapsackSolver, solver);
        // test_matmul_uneven_chain: every listed target is an exact sum, which an exact solver hits.
        const JointGraph graph = loadGraphFile(testing::testAcPath("matmul_uneven_chain_11_3_4_2.json"));
        BudgetOptions options;
        options.solver = solver;
        const BudgetSession session(graph, {}, options);
        for (int target : {18, 17, 16, 15, 14, 13, 11, 7, 6, 5}) {
            const BudgetedPlan plan = session.plan(target / 20.0);
            const auto mib = static_cast<double>(plan.metrics.activationBytes) / (1024.0 * 1024.0);
            QVERIFY(mib <= target + 1e-9);
            if (solver == KnapsackSolver::Ilp)
                QCOMPARE(mib, static_cast<double>(target));
        }
    }
};

QTEST_GUILESS_MAIN(TestMemoryBudget)
#include "tst_memorybudget.moc"
