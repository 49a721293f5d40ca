// SPDX-License-Identifier: MIT
// The one comparison with PyTorch's recorded decision (core/explain/recorded_comparison.h): which
// recording it picks (rules, op list, budget by value, never another one), and the "differs" path:
// nodes only ours, only PyTorch's, and recorded names the graph does not have.
#include "budget/budget_planner.h"
#include "explain/recorded_comparison.h"
#include "graph/error.h"
#include "io/file_text.h"
#include "io/graph_loader.h"
#include "partition/partitioner.h"

#include <QTest>

using namespace remat;

namespace {

/// cos_cos.json (torch 1.13) with its records rewritten: each `renamed` key gets a suffix (so that
/// the file no longer has it), then `version` and extra records are spliced in.
JointGraph cosCos(
    const std::string& version, const std::string& extraRecords, const std::vector<std::string>& renamed = {})
{
    std::string text = readFileText(REMAT_TEST_DATA_DIR "/worked_examples/cos_cos.json");
    for (const std::string& key : renamed) {
        const auto at = text.find("\"" + key + "\":");
        if (at == std::string::npos)
            throw Error("cos_cos.json has no record \"" + key + "\" any more");
        text.insert(at + key.size() + 1, "_renamed");
    }
    const std::string anchor = R"("reference":{"torch_version":"1.13.0a0",)";
    const auto at = text.find(anchor);
    if (at == std::string::npos)
        throw Error("cos_cos.json no longer starts its reference with torch_version 1.13.0a0");
    text.replace(at, anchor.size(), R"("reference":{"torch_version":")" + version + R"(",)" + extraRecords);
    return loadGraphText(text, "cos_cos.json");
}

std::vector<std::string> names(const JointGraph& graph, const std::vector<NodeId>& nodes)
{
    std::vector<std::string> out;
    for (NodeId n : nodes)
        out.push_back(graph.node(n).name);
    return out;
}

PartitionOptions rules(RuleSet set)
{
    PartitionOptions options;
    options.rules = set;
    return options;
}

} // namespace

class TestRecordedComparison : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void identicalOnTheRecordedGraph()
    {
        const JointGraph graph = cosCos("1.13.0a0", "");
        const PartitionResult result = partitionGraph(graph, rules(RuleSet::Torch113));
        const auto comparison = compareWithRecorded(graph, result);
        QVERIFY(comparison.has_value());
        QCOMPARE(comparison->plan.key, std::string("min_cut"));
        QVERIFY(comparison->identical());
        QCOMPARE(describeDifferences(graph, *comparison), std::string("identical"));
    }

    void listsWhatDiffers()
    {
        // PyTorch "saved" cos and a name the graph lacks, where min-cut saves primals_1.
        // Min-cut saves primals_1 here.
        const JointGraph graph = cosCos("1.13.0a0",
            R"("min_cut":{"saved_values":["cos","no_such_node"],"fw_nodes":[],"bw_nodes":[]},)", {"min_cut"});
        const PartitionResult result = partitionGraph(graph, rules(RuleSet::Torch113));
        QCOMPARE(names(graph, result.savedValues), std::vector<std::string> {"primals_1"});
        const auto comparison = compareWithRecorded(graph, result);
        QVERIFY(comparison.has_value());
        QCOMPARE(comparison->plan.key, std::string("min_cut"));
        QVERIFY(!comparison->identical());
        QCOMPARE(names(graph, comparison->onlyOurs), std::vector<std::string> {"primals_1"});
        QCOMPARE(names(graph, comparison->onlyRecorded), std::vector<std::string> {"cos"});
        QCOMPARE(comparison->unknownNames, std::vector<std::string> {"no_such_node"});
        QCOMPARE(describeDifferences(graph, *comparison),
            std::string("1 only ours (primals_1), 1 only PyTorch's (cos), 1 recorded name not in the graph "
                        "(no_such_node)"));
    }

    void neverFallsBackToAnotherRecording()
    {
        const JointGraph graph = cosCos("1.13.0a0", "", {"min_cut_inductor"});
        PartitionOptions inductor = rules(RuleSet::Torch113);
        inductor.compiler = OpListCompiler::Inductor; // the file has min_cut only, not min_cut_inductor
        QVERIFY(!compareWithRecorded(graph, partitionGraph(graph, inductor)).has_value());
        QVERIFY(
            QString::fromStdString(missingRecordedPlanMessage(graph, inductor)).contains("min_cut_inductor"));
        // A 1.13 recording is no reference for the torch-2.14 rules.
        QVERIFY(!compareWithRecorded(graph, partitionGraph(graph, rules(RuleSet::Torch214))).has_value());
        // Nor for a tagged plan.
        PartitionOptions tagged = rules(RuleSet::Torch113);
        tagged.tags.emplace_back(graph.find("cos"), CheckpointPolicy::MustRecompute);
        QVERIFY(!compareWithRecorded(graph, partitionGraph(graph, tagged)).has_value());
    }

    void budgetsAreMatchedByValue()
    {
        // The exporter names budgets with Python's :g ("memory_budget_0"), not as we print 0.0.
        const JointGraph graph = cosCos("2.14.1+debian",
            R"("memory_budget_0":{"saved_values":["primals_1"]},)"
            R"("memory_budget_0.25":{"saved_values":["cos"]},)"
            R"("memory_budget_1e-05":{"saved_values":["cos"]},)"
            R"("memory_budget_0.25_greedy":{"saved_values":["primals_1"]},)");
        const PartitionOptions options = rules(RuleSet::Torch214);
        QCOMPARE(recordedKey(graph, options, 0.0), std::optional<std::string>("memory_budget_0"));
        QCOMPARE(recordedKey(graph, options, 0.25), std::optional<std::string>("memory_budget_0.25"));
        QCOMPARE(recordedKey(graph, options, 0.00001), std::optional<std::string>("memory_budget_1e-05"));
        QVERIFY(!findRecordedPlan(graph, options, 0.5).has_value());
        QVERIFY(QString::fromStdString(missingRecordedPlanMessage(graph, options, 0.5))
                    .contains("memory_budget_0.5"));

        // The budget plot's marks: the records of one knapsack variant, by budget, read from the key.
        std::vector<std::pair<double, std::string>> marks;
        for (const RecordedBudgetPlan& r : comparableBudgetRecords(graph, options))
            marks.emplace_back(r.budget, r.plan.key);
        QCOMPARE(marks,
            (std::vector<std::pair<double, std::string>> {
                {0.0, "memory_budget_0"}, {0.00001, "memory_budget_1e-05"}, {0.25, "memory_budget_0.25"}}));
        const auto greedyMarks = comparableBudgetRecords(graph, options, "greedy");
        QCOMPARE(greedyMarks.size(), std::size_t {1});
        QCOMPARE(greedyMarks.front().plan.key, std::string("memory_budget_0.25_greedy"));
        QCOMPARE(greedyMarks.front().plan.recorded, graph.recordedPartition("memory_budget_0.25_greedy"));
        PartitionOptions tagged = options; // PyTorch recorded the graph without tags
        tagged.tags.emplace_back(graph.find("cos"), CheckpointPolicy::MustRecompute);
        QVERIFY(comparableBudgetRecords(graph, tagged).empty());
        // A torch-1.13 file's budget records (if any) are no reference: budgets run the newest rules.
        const JointGraph old = cosCos("1.13.0a0", R"("memory_budget_0":{"saved_values":["primals_1"]},)");
        QVERIFY(comparableBudgetRecords(old, rules(RuleSet::Torch113)).empty());

        // Another solver or estimator matches only a record made with it, never PyTorch's default one.
        BudgetOptions greedy;
        greedy.solver = KnapsackSolver::Greedy;
        QCOMPARE(budgetRecordVariant(greedy), std::string("greedy"));
        QCOMPARE(recordedKey(graph, options, 0.25, "greedy"),
            std::optional<std::string>("memory_budget_0.25_greedy"));
        QVERIFY(!findRecordedPlan(graph, options, 0.0, "greedy").has_value());
        QVERIFY(QString::fromStdString(missingRecordedPlanMessage(graph, options, 0.0, "greedy"))
                    .contains("memory_budget_0_greedy"));
        BudgetOptions testing;
        testing.estimator = RuntimeEstimatorKind::Testing;
        QCOMPARE(budgetRecordVariant(testing), std::string("testing"));
        QCOMPARE(budgetRecordVariant(BudgetOptions {}), std::string());
    }
};

QTEST_GUILESS_MAIN(TestRecordedComparison)
#include "tst_recordedcomparison.moc"
