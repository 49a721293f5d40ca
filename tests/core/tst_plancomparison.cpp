// SPDX-License-Identifier: MIT
// Plan comparison: which values two plans save, on real graphs and their recorded decisions.
#include "explain/explain_json.h"
#include "explain/plan_comparison.h"
#include "explain/plan_file_reader.h"
#include "explain/recorded_plan.h"
#include "explain_test_support.h"
#include "graph/error.h"
#include "io/graph_loader.h"
#include "io/plan_json.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <fstream>
#include <set>

using namespace remat;
using remat::testing::oracleGraph;

class TestPlanComparison : public QObject {
    Q_OBJECT

private slots:
    void partitionsOfOneGraph_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addRow("gpt_n2") << "gpt_n2.json";
        QTest::addRow("resnet") << "resnet_basic_block.json";
        QTest::addRow("torch2 llama") << "torch2/hf_llama_gqa_train_logits.json";
    }
    void partitionsOfOneGraph()
    {
        QFETCH(QString, file);
        const JointGraph& graph = oracleGraph(file.toStdString());
        const PlanRunner runner(graph, BudgetOptions {});
        PlanRequest minCut;
        minCut.options.rules = RuleSet::Newest;
        PlanRequest budget = minCut;
        budget.budget = 0.2;
        const PlanRun a = runner.run(minCut);
        const PlanRun b = runner.run(budget);
        const PlanComparison c = comparePlans(a.result, a.summary, b.result, b.summary);
        // The three lists partition the union of both saved sets, each in graph order.
        std::set<NodeId> savedA(a.result.savedValues.begin(), a.result.savedValues.end());
        std::set<NodeId> savedB(b.result.savedValues.begin(), b.result.savedValues.end());
        QCOMPARE(c.onlyInA.size() + c.inBoth.size(), savedA.size());
        QCOMPARE(c.onlyInB.size() + c.inBoth.size(), savedB.size());
        for (NodeId n : c.onlyInA)
            QVERIFY(savedA.contains(n) && !savedB.contains(n));
        for (NodeId n : c.onlyInB)
            QVERIFY(savedB.contains(n) && !savedA.contains(n));
        for (NodeId n : c.inBoth)
            QVERIFY(savedA.contains(n) && savedB.contains(n));
        QVERIFY(std::is_sorted(c.onlyInA.begin(), c.onlyInA.end()));
        QVERIFY(std::is_sorted(c.onlyInB.begin(), c.onlyInB.end()));
        QCOMPARE(c.a.peakBytes, a.summary.peakBytes);
        QCOMPARE(c.b.estimatedRuntime, b.summary.estimatedRuntime);
        // A lower budget keeps no more activation memory.
        QVERIFY(c.b.activationBytes <= c.a.activationBytes);

        QJsonParseError error {};
        const auto json = QJsonDocument::fromJson(
            QByteArray::fromStdString(comparisonToJson(graph, c, "min-cut", "budget=0.2")), &error);
        QCOMPARE(error.error, QJsonParseError::NoError);
        const QJsonObject root = json.object();
        QCOMPARE(root.value("only_in_a").toArray().size(), static_cast<qsizetype>(c.onlyInA.size()));
        QCOMPARE(root.value("only_in_b").toArray().size(), static_cast<qsizetype>(c.onlyInB.size()));
        QCOMPARE(root.value("in_both_count").toInteger(), static_cast<qint64>(c.inBoth.size()));
        QCOMPARE(root.value("a").toObject().value("saved_bytes").toInteger(), c.a.savedBytes);
        QCOMPARE(root.value("b").toObject().value("peak_bytes").toInteger(), c.b.peakBytes);
        QCOMPARE(root.value("b").toObject().value("estimated_runtime").toDouble(), c.b.estimatedRuntime);
    }

    void aPlanAgainstItself()
    {
        const JointGraph& graph = oracleGraph("lstm_unrolled8.json");
        const PlanRunner runner(graph, BudgetOptions {});
        const PlanRun run = runner.run(PlanRequest {});
        const PlanComparison c = comparePlans(run.result, run.summary, run.result, run.summary);
        QVERIFY(c.onlyInA.empty());
        QVERIFY(c.onlyInB.empty());
        QCOMPARE(c.inBoth.size(), run.result.savedValues.size());
    }

    /// Ours against PyTorch's recorded 1.13 decision: the same saved values, the same numbers.
    void oursAgainstPyTorch()
    {
        const JointGraph& graph = oracleGraph("gpt_n8.json");
        const PlanRunner runner(graph, BudgetOptions {});
        const PlanRun ours = runner.run(PlanRequest {});
        const PartitionResult theirs = recordedPlanResult(runner, PartitionOptions {});
        const PlanComparison c = comparePlans(ours.result, ours.summary, theirs, runner.summarize(theirs));
        QVERIFY(c.onlyInA.empty());
        QVERIFY(c.onlyInB.empty());
        QCOMPARE(c.a.savedBytes, c.b.savedBytes);
        QCOMPARE(c.a.peakBytes, c.b.peakBytes);
        QCOMPARE(c.a.estimatedRuntime, c.b.estimatedRuntime);
    }

    /// Default against min-cut differ on a real graph (else the lists would test nothing).
    void defaultAgainstMinCut()
    {
        const JointGraph& graph = oracleGraph("gpt_n2.json");
        const PlanRunner runner(graph, BudgetOptions {});
        PlanRequest byDefault;
        byDefault.options.partitioner = PartitionerKind::Default;
        const PlanRun a = runner.run(byDefault);
        const PlanRun b = runner.run(PlanRequest {});
        const PlanComparison c = comparePlans(a.result, a.summary, b.result, b.summary);
        QVERIFY(!c.onlyInA.empty());
        QVERIFY(c.b.recomputedCount > c.a.recomputedCount);
        QVERIFY(c.b.estimatedRuntime > c.a.estimatedRuntime);
    }

    /// Dynamic shapes: a plan passes SymInts to the backward beside its saved values. PyTorch's
    /// recorded plan and plan files were re-extracted from the tensors alone, and failed ("the
    /// backward graph must output 'getitem_1', but it cannot be computed from that graph's inputs").
    void dynamicShapePlansCarryTheirSymInts()
    {
        const JointGraph graph = loadGraphFile(REMAT_TEST_DATA_DIR "/torch_trace/dynamic.log", "0/1");
        const PlanRunner runner(graph, BudgetOptions {});
        PlanRequest request;
        request.options.rules = RuleSet::Torch214;
        const PlanRun ours = runner.run(request);
        QCOMPARE(ours.result.savedSymNodes.size(), std::size_t(7));
        QCOMPARE(ours.summary.savedSymCount, 7);

        const PartitionResult theirs = recordedPlanResult(runner, request.options);
        std::set<std::string> recorded(graph.recordedPartition("min_cut")->savedSymNodes.begin(),
            graph.recordedPartition("min_cut")->savedSymNodes.end());
        std::set<std::string> extracted;
        for (NodeId n : theirs.savedSymNodes)
            extracted.insert(graph.node(n).name);
        QCOMPARE(extracted, recorded);
        const PlanComparison same = comparePlans(ours.result, ours.summary, theirs, runner.summarize(theirs));
        QVERIFY(same.onlyInA.empty() && same.onlyInB.empty());
        QCOMPARE(same.inBoth.size(), std::size_t(6 + 7));

        // A SymInt one plan passes and the other does not is a difference.
        PartitionResult fewer = ours.result;
        const NodeId dropped = fewer.savedSymNodes.back();
        fewer.savedSymNodes.pop_back();
        const PlanComparison c = comparePlans(ours.result, ours.summary, fewer, runner.summarize(fewer));
        QCOMPARE(c.onlyInA, std::vector<NodeId> {dropped});
        QCOMPARE(c.b.savedSymCount, 6);

        // A plan file keeps them ("saved_sym_nodes") and reads back to the same plan.
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("plan.json")).toStdString();
        const std::string json = planToJson(graph, ours.result, {});
        std::ofstream(path) << json;
        const PartitionResult back = readPlanResult(runner, path, request.options);
        QCOMPARE(back.savedSymNodes, ours.result.savedSymNodes);
        QCOMPARE(back.savedValues, ours.result.savedValues);
        // Without them, the error says what the plan lacks.
        QJsonObject object = QJsonDocument::fromJson(QByteArray::fromStdString(json)).object();
        object.remove(QStringLiteral("saved_sym_nodes"));
        std::ofstream(path) << QJsonDocument(object).toJson().toStdString();
        try {
            readPlanResult(runner, path, request.options);
            QFAIL("a dynamic-shape plan without its SymInts was read");
        } catch (const Error& e) {
            QVERIFY2(std::string(e.what()).find("the plan lists no \"saved_sym_nodes\"") != std::string::npos,
                e.what());
        }
    }
};

QTEST_GUILESS_MAIN(TestPlanComparison)
#include "tst_plancomparison.moc"
