// SPDX-License-Identifier: MIT
// PlanRunner: its numbers against the budget session's own, plan files read back, and PyTorch's
// recorded decision as a plan (identical to ours where cmd_partition says "identical").
#include "budget/budget_session.h"
#include "explain/plan_file_reader.h"
#include "explain/plan_run.h"
#include "explain/recorded_plan.h"
#include "explain_test_support.h"
#include "io/file_text.h"
#include "io/plan_json.h"
#include "partition/partitioner.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

#include <thread>

using namespace remat;
using remat::testing::oracleGraph;

namespace {

PlanRequest minCut(RuleSet rules, OpListCompiler compiler = OpListCompiler::Nvfuser)
{
    PlanRequest r;
    r.options.rules = rules;
    r.options.compiler = compiler;
    return r;
}

PlanRequest budgetRequest(double budget)
{
    PlanRequest r;
    r.options.rules = RuleSet::Newest;
    r.budget = budget;
    return r;
}

std::vector<std::string> names(const JointGraph& graph, const std::vector<NodeId>& nodes)
{
    std::vector<std::string> out;
    for (NodeId n : nodes)
        out.push_back(graph.node(n).name);
    return out;
}

} // namespace

class TestPlanRun : public QObject {
    Q_OBJECT

private slots:
    void budgetSummaryMatchesTheSession_data()
    {
        QTest::addColumn<double>("budget");
        for (double b : {0.0, 0.1, 0.3, 0.6, 1.0})
            QTest::addRow("budget %g", b) << b;
    }
    void budgetSummaryMatchesTheSession()
    {
        QFETCH(double, budget);
        const JointGraph& graph = oracleGraph("gpt_n8.json");
        const PlanRunner runner(graph, BudgetOptions {});
        const PlanRun run = runner.run(budgetRequest(budget));

        const BudgetSession session(graph, PartitionOptions {}, BudgetOptions {});
        const BudgetedPlan plan = session.plan(budget, MemorySimulationOptions {false, false});
        QCOMPARE(run.result.savedValues, plan.result.savedValues);
        QCOMPARE(run.summary.savedBytes, plan.metrics.savedBytes);
        QCOMPARE(run.summary.activationBytes, plan.metrics.activationBytes);
        QCOMPARE(run.summary.estimatedRuntime, plan.metrics.estimatedRuntime);
        QCOMPARE(run.summary.peakBytes, *plan.metrics.peakBytes);
        QCOMPARE(run.summary.runtimeUnit, std::string("flops"));
        QCOMPARE(run.summary.savedCount, static_cast<int>(plan.result.savedValues.size()));
        QCOMPARE(run.summary.recomputedCount, static_cast<int>(plan.result.recomputed.size()));
        QCOMPARE(run.summary.bannedCount, static_cast<int>(plan.result.banned.size()));
        QVERIFY(run.budget.has_value());
        QCOMPARE(run.budget->stage, plan.stage);
    }

    void plainRunIsThePartitioner_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("partitioner");
        QTest::addColumn<int>("rules");
        QTest::addRow("min-cut torch-1.13")
            << "gpt_n2.json" << int(PartitionerKind::MinCut) << int(RuleSet::Torch113);
        QTest::addRow("min-cut newest")
            << "gpt_n2.json" << int(PartitionerKind::MinCut) << int(RuleSet::Newest);
        QTest::addRow("default torch-1.13")
            << "gpt_n2.json" << int(PartitionerKind::Default) << int(RuleSet::Torch113);
        // (the newest default partition cannot extract some 1.13 graphs: a 2.14 graph)
        QTest::addRow("default newest")
            << "torch2/hf_gpt2_train_loss.json" << int(PartitionerKind::Default) << int(RuleSet::Newest);
    }
    void plainRunIsThePartitioner()
    {
        QFETCH(QString, file);
        QFETCH(int, partitioner);
        QFETCH(int, rules);
        const JointGraph& graph = oracleGraph(file.toStdString());
        PlanRequest request;
        request.options.partitioner = static_cast<PartitionerKind>(partitioner);
        request.options.rules = static_cast<RuleSet>(rules);
        const PlanRunner runner(graph, BudgetOptions {});
        const PlanRun run = runner.run(request);
        const PartitionResult direct = partitionGraph(graph, request.options);
        QCOMPARE(run.result.savedValues, direct.savedValues);
        QCOMPARE(run.result.recomputed, direct.recomputed);
        QCOMPARE(run.summary.savedBytes, direct.savedBytes);
        QVERIFY(run.summary.peakBytes >= run.summary.activationBytes);
        QVERIFY(run.summary.peakBytes > 0);
        // Runtime is what the backward re-runs: none when nothing is recomputed (1.13's default),
        // some where 2.14's default partition re-runs input-only forward nodes in the backward.
        if (direct.recomputed.empty())
            QCOMPARE(run.summary.estimatedRuntime, 0.0);
        else
            QVERIFY(run.summary.estimatedRuntime > 0.0);
        // Asked again (the cache) or from two threads at once: the same plan.
        PlanRun a, b;
        std::thread t1([&] { a = runner.run(request); });
        std::thread t2([&] { b = runner.run(request); });
        t1.join();
        t2.join();
        QCOMPARE(a.result.savedValues, run.result.savedValues);
        QCOMPARE(b.summary.peakBytes, run.summary.peakBytes);
    }

    void planFileRoundTrip_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("rules");
        QTest::addColumn<double>("budget"); // < 0: none
        QTest::addRow("gpt_n2 torch-1.13") << "gpt_n2.json" << int(RuleSet::Torch113) << -1.0;
        QTest::addRow("resnet torch-1.13") << "resnet_basic_block.json" << int(RuleSet::Torch113) << -1.0;
        QTest::addRow("gpt_n2 newest") << "gpt_n2.json" << int(RuleSet::Newest) << -1.0;
        QTest::addRow("gpt_n8 budget 0.4") << "gpt_n8.json" << int(RuleSet::Newest) << 0.4;
    }
    void planFileRoundTrip()
    {
        QFETCH(QString, file);
        QFETCH(int, rules);
        QFETCH(double, budget);
        const JointGraph& graph = oracleGraph(file.toStdString());
        const PlanRunner runner(graph, BudgetOptions {});
        PlanRequest request = minCut(static_cast<RuleSet>(rules));
        if (budget >= 0)
            request.budget = budget;
        const PlanRun run = runner.run(request);
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("plan.json")).toStdString();
        writeFileAtomically(path, planToJson(graph, run.result));

        const PartitionResult back = readPlanResult(runner, path, request.options);
        QCOMPARE(back.savedValues, run.result.savedValues);
        QCOMPARE(back.recomputed, run.result.recomputed);
        QCOMPARE(back.fwNodes, run.result.fwNodes);
        QCOMPARE(back.bwNodes, run.result.bwNodes);
        const PlanSummary s = runner.summarize(back);
        QCOMPARE(s.savedBytes, run.summary.savedBytes);
        QCOMPARE(s.activationBytes, run.summary.activationBytes);
        QCOMPARE(s.peakBytes, run.summary.peakBytes);
        QCOMPARE(s.estimatedRuntime, run.summary.estimatedRuntime);
    }

    void badPlanFiles_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        QTest::addRow("no saved_values") << R"({"recomputed": []})"
                                         << R"(plan.json: missing "saved_values")";
        QTest::addRow("not a list") << R"({"saved_values": 3})"
                                    << R"("saved_values" must be a list of node names)";
        QTest::addRow("unknown node") << R"({"saved_values": ["relu", "no_such_node"]})"
                                      << R"(plan.json: "saved_values"[1]: 'no_such_node' is not a node of)";
        QTest::addRow("malformed") << R"({"saved_values": [)"
                                   << "plan.json:1:19: malformed JSON";
    }
    void badPlanFiles()
    {
        QFETCH(QString, text);
        QFETCH(QString, message);
        const JointGraph& graph = oracleGraph("mlp3_relu.json");
        const PlanRunner runner(graph, BudgetOptions {});
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("plan.json")).toStdString();
        writeFileAtomically(path, text.toStdString());
        try {
            readPlanResult(runner, path, PartitionOptions {});
            QFAIL("a bad plan file was accepted");
        } catch (const Error& e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(message), e.what());
        }
    }

    /// Where cmd_partition prints "identical", the recorded plan saves what our partition saves.
    void recordedPlanIsOurs_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("partitioner");
        QTest::addColumn<int>("compiler");
        const QDir oracle(QStringLiteral(REMAT_SHARED_DIR "/oracle"));
        const auto files = oracle.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
        QVERIFY2(files.size() >= 9, "the shared oracle folder is missing or incomplete");
        for (const auto& f : files) {
            QTest::addRow("%s min_cut", qPrintable(f))
                << f << int(PartitionerKind::MinCut) << int(OpListCompiler::Nvfuser);
            QTest::addRow("%s min_cut_inductor", qPrintable(f))
                << f << int(PartitionerKind::MinCut) << int(OpListCompiler::Inductor);
            QTest::addRow("%s default", qPrintable(f))
                << f << int(PartitionerKind::Default) << int(OpListCompiler::Nvfuser);
        }
    }
    void recordedPlanIsOurs()
    {
        QFETCH(QString, file);
        QFETCH(int, partitioner);
        QFETCH(int, compiler);
        const JointGraph& graph = oracleGraph(file.toStdString());
        PartitionOptions options;
        options.partitioner = static_cast<PartitionerKind>(partitioner);
        options.compiler = static_cast<OpListCompiler>(compiler);
        const auto recorded = findRecordedPlan(graph, options);
        QVERIFY2(recorded.has_value(), missingRecordedPlanMessage(graph, options).c_str());
        const PlanRunner runner(graph, BudgetOptions {});
        const PartitionResult ours = partitionGraph(graph, options);
        const PartitionResult theirs = recordedPlanResult(runner, options);
        // cmd_partition's "identical": the same saved names.
        auto recordedNames = recorded->recorded->savedValues;
        auto ourNames = names(graph, ours.savedValues);
        std::sort(recordedNames.begin(), recordedNames.end());
        std::sort(ourNames.begin(), ourNames.end());
        QCOMPARE(ourNames, recordedNames);
        QCOMPARE(theirs.savedValues, ours.savedValues);
        QCOMPARE(theirs.recomputed, ours.recomputed); // the same extraction
        QCOMPARE(theirs.fwNodes, ours.fwNodes);
        QCOMPARE(theirs.bwNodes, ours.bwNodes);
    }

    /// PyTorch 2.14's recorded min-cut and memory-budget decisions (dp solver, flops estimator)
    /// are the plans the runner makes under the newest rules.
    void recordedTorch2PlansAreOurs_data()
    {
        QTest::addColumn<QString>("file");
        const QDir torch2(QStringLiteral(REMAT_SHARED_DIR "/oracle/torch2"));
        const auto files = torch2.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
        QVERIFY2(files.size() >= 50, "the shared oracle/torch2 folder is missing or incomplete");
        for (const auto& f : files)
            QTest::addRow("%s", qPrintable(f)) << QStringLiteral("torch2/") + f;
    }
    void recordedTorch2PlansAreOurs()
    {
        QFETCH(QString, file);
        const JointGraph& graph = oracleGraph(file.toStdString());
        const PlanRunner runner(graph, BudgetOptions {});
        PlanRequest request;
        request.options.rules = RuleSet::Newest;
        QCOMPARE(
            recordedPlanResult(runner, request.options).savedValues, runner.run(request).result.savedValues);
        for (double budget : {0.0, 0.25, 0.5, 0.75}) {
            request.budget = budget;
            const PartitionResult theirs = recordedPlanResult(runner, request.options, budget);
            QCOMPARE(theirs.savedValues, runner.run(request).result.savedValues);
        }
    }

    void recordedKeys()
    {
        const JointGraph& torch2 = oracleGraph("torch2/hf_gpt2_train_loss.json");
        PartitionOptions newest;
        newest.rules = RuleSet::Newest;
        QCOMPARE(*recordedKey(torch2, newest), std::string("min_cut"));
        // Matched by value: the exporter writes "memory_budget_0", not "memory_budget_0.0".
        QCOMPARE(*recordedKey(torch2, newest, 0.0), std::string("memory_budget_0"));
        QCOMPARE(*recordedKey(torch2, PartitionOptions {}, 0.25), std::string("memory_budget_0.25"));
        QVERIFY(findRecordedPlan(torch2, newest, 0.5).has_value());
        QVERIFY(!findRecordedPlan(torch2, newest, 0.3).has_value());
        QVERIFY(QString::fromStdString(missingRecordedPlanMessage(torch2, newest, 0.3))
                    .contains(QStringLiteral("no recorded PyTorch decision \"memory_budget_0.3\"")));
        // A 2.x file's records follow the newest rules, not 1.13's.
        QVERIFY(!recordedKey(torch2, PartitionOptions {}).has_value());
        QVERIFY(QString::fromStdString(missingRecordedPlanMessage(torch2, PartitionOptions {}))
                    .contains(QStringLiteral("which follow the torch-2.14 rules, not torch-1.13")));
        // ... and a 1.13 file's the other way round; no budgets there.
        const JointGraph& torch113 = oracleGraph("mlp3_relu.json");
        QCOMPARE(*recordedKey(torch113, PartitionOptions {}), std::string("min_cut"));
        QVERIFY(!recordedKey(torch113, newest).has_value());
        QVERIFY(!recordedKey(torch113, PartitionOptions {}, 0.5).has_value());
        // Recorded decisions carry no user tags.
        PartitionOptions tagged;
        tagged.tags.emplace_back(torch113.find("relu"), CheckpointPolicy::MustSave);
        QVERIFY(!findRecordedPlan(torch113, tagged).has_value());
        const PlanRunner runner(torch113, BudgetOptions {});
        QVERIFY_THROWS_EXCEPTION(Error, recordedPlanResult(runner, tagged));
    }

    void recordedBudgetPlanOnTorch2()
    {
        const JointGraph& graph = oracleGraph("torch2/hf_gpt2_train_loss.json");
        const PlanRunner runner(graph, BudgetOptions {});
        PartitionOptions options;
        options.rules = RuleSet::Newest;
        const PartitionResult theirs = recordedPlanResult(runner, options, 0.5);
        const auto* recorded = graph.recordedPartition("memory_budget_0.5");
        QVERIFY(recorded);
        QVERIFY(!theirs.savedValues.empty());
        // Every recorded name is saved (CSE twins stand for each other, so no more than recorded).
        QVERIFY(theirs.savedValues.size() <= recorded->savedValues.size());
        const PlanSummary s = runner.summarize(theirs);
        QCOMPARE(s.savedCount, static_cast<int>(theirs.savedValues.size()));
        QVERIFY(s.peakBytes > 0);
    }
};

QTEST_GUILESS_MAIN(TestPlanRun)
#include "tst_planrun.moc"
