// SPDX-License-Identifier: MIT
// The joint-graph passes Inductor (torch 2.14) runs before partitioning, replayed for those that
// only remove nodes (partition/inductor_joint_passes.h): each rule on a small graph, then real
// TORCH_TRACE logs of the default backend, whose recorded decisions 2.14 made after the passes.
#include "analysis/op_categories.h"
#include "analysis/recording_rules.h"
#include "budget/budget_session.h"
#include "conformance_support.h"
#include "explain/node_decision.h"
#include "explain/recorded_comparison.h"
#include "explain/unnamed_provenance.h"
#include "io/torch_trace.h"
#include "partition/inductor_joint_passes.h"
#include "partition/partitioner.h"
#include "tiny_graph.h"

#include <QTest>

using namespace remat;
using namespace remat::testing;

namespace {

std::string logFile(const char* name)
{
    return std::string(REMAT_TEST_DATA_DIR "/torch_trace/") + name;
}

/// name -> the node its uses read in the end, for every node the passes remove.
std::map<std::string, std::string> removals(const JointGraph& graph)
{
    const WorkGraph work(graph);
    const OpCategories ops(graph, RuleSet::Torch214, OpListCompiler::Inductor);
    const std::vector<NodeId> into = inductorJointPassRemovals(work, ops);
    std::map<std::string, std::string> out;
    for (std::size_t i = 0; i < into.size(); ++i) {
        NodeId to = into[i];
        if (to == kNoNode)
            continue;
        while (into[static_cast<std::size_t>(to)] != kNoNode) // a chain: back -> flat -> relu
            to = into[static_cast<std::size_t>(to)];
        out[graph.node(static_cast<NodeId>(i)).name] = graph.node(to).name;
    }
    return out;
}

const char* kMax = "9223372036854775807";

} // namespace

class TestInductorJointPasses : public QObject {
    Q_OBJECT

private slots:
    /// remove_noop_ops: a no-op goes when its metadata matches its source's, and not where the
    /// output would then alias an input.
    void removesNoOps()
    {
        const auto r
            = TinyGraph()
                  .placeholder("primals_1")
                  .placeholder("tangents_1")
                  .call("relu", "aten.relu.default", "[" + TinyGraph::ref("primals_1") + "]")
                  .call("view", "aten.view.default", "[" + TinyGraph::ref("relu") + ",[8,8]]")
                  .call("clone", "aten.clone.default", "[" + TinyGraph::ref("view") + "]")
                  .call("slice_1", "aten.slice.Tensor", "[" + TinyGraph::ref("clone") + ",0,0," + kMax + "]")
                  .call("convert", "prims.convert_element_type.default",
                      "[" + TinyGraph::ref("slice_1") + R"(,{"repr":"torch.float32"}])")
                  .call("half", "aten.slice.Tensor", "[" + TinyGraph::ref("convert") + ",0,0,4]")
                  .call("mul", "aten.mul.Tensor", "[" + TinyGraph::ref("half") + ",2]")
                  .call("copy", "aten.clone.default", "[" + TinyGraph::ref("primals_1") + "]")
                  .call("grad", "aten.mul.Tensor",
                      "[" + TinyGraph::ref("tangents_1") + "," + TinyGraph::ref("convert") + "]")
                  .output({"mul", "copy"}, {"grad"})
                  .build();
        const auto removed = removals(r);
        QCOMPARE(removed.at("view"), std::string("relu"));
        QCOMPARE(removed.at("clone"), std::string("relu"));
        QCOMPARE(removed.at("slice_1"), std::string("relu"));
        QCOMPARE(removed.at("convert"), std::string("relu"));
        QVERIFY(!removed.contains("half")); // a slice of half the rows is no no-op
        QVERIFY(!removed.contains("copy")); // an output clone of an input must stay a copy
        QCOMPARE(removed.size(), std::size_t(4));
    }

    /// The early patterns: a view to its own size (one -1 allowed), a view or permute that undoes
    /// a single-user one; not when the inner one has another user.
    void removesPointlessViewsAndPermutes()
    {
        // Written out: each view has the size it asks for (TinyGraph sizes every node alike).
        const auto val = [](const char* shape) {
            return std::string("{\"shape\":") + shape + ",\"dtype\":\"float32\",\"device\":\"cpu\"}";
        };
        std::string nodes;
        const auto add = [&](const char* name, const char* op, const char* target, const std::string& args,
                             const char* shape) {
            nodes += std::string(nodes.empty() ? "" : ",") + "{\"name\":\"" + name + "\",\"op\":\"" + op
                + "\",\"target\":\"" + target + "\",\"args\":" + args
                + ",\"kwargs\":{},\"val\":" + (shape ? val(shape) : "null") + ",\"meta\":{}}";
        };
        const auto ref = TinyGraph::ref;
        add("primals_1", "placeholder", "primals_1", "[]", "[8,8]");
        add("tangents_1", "placeholder", "tangents_1", "[]", "[8,8]");
        add("relu", "call_function", "aten.relu.default", "[" + ref("primals_1") + "]", "[8,8]");
        add("flat", "call_function", "aten.view.default", "[" + ref("relu") + ",[-1,8]]", "[8,8]");
        add("wide", "call_function", "aten.view.default", "[" + ref("flat") + ",[4,16]]", "[4,16]");
        add("back", "call_function", "aten.view.default", "[" + ref("wide") + ",[8,8]]", "[8,8]");
        add("t1", "call_function", "aten.permute.default", "[" + ref("back") + ",[1,0]]", "[8,8]");
        add("t2", "call_function", "aten.permute.default", "[" + ref("t1") + ",[1,0]]", "[8,8]");
        add("t3", "call_function", "aten.permute.default", "[" + ref("relu") + ",[1,0]]", "[8,8]");
        add("t4", "call_function", "aten.permute.default", "[" + ref("t3") + ",[1,0]]", "[8,8]");
        add("sum", "call_function", "aten.add.Tensor", "[" + ref("t2") + "," + ref("t3") + "]", "[8,8]");
        add("out", "call_function", "aten.add.Tensor", "[" + ref("sum") + "," + ref("t4") + "]", "[8,8]");
        add("grad", "call_function", "aten.mul.Tensor", "[" + ref("tangents_1") + "," + ref("out") + "]",
            "[8,8]");
        add("output", "output", "output", "[[" + ref("out") + "," + ref("grad") + "]]", nullptr);
        const JointGraph graph = readJointGraphText(
            "{\"format\":\"joint-graph\",\"version\":1,\"num_fwd_outputs\":1,\"nodes\":[" + nodes + "]}",
            "views.json");
        const auto removed = removals(graph);
        QCOMPARE(removed.at("flat"), std::string("relu")); // pointless_view, with its -1
        QCOMPARE(removed.at("back"), std::string("relu")); // pointless_view_pair (wide has one user)
        QCOMPARE(removed.at("t2"), std::string("relu")); // pointless_permute_pair
        QVERIFY(!removed.contains("t4")); // t3 has two users
        QVERIFY(!removed.contains("wide"));
        QCOMPARE(removed.size(), std::size_t(3));
    }

    void realLogs_data()
    {
        QTest::addColumn<QString>("log");
        QTest::addColumn<QString>("id");
        QTest::addColumn<bool>(
            "replayNeeded"); // without the replay, the saved set differs (a removed node is cut)
        QTest::addRow("TransformerEncoderLayer")
            << QStringLiteral("inductor.log") << QStringLiteral("0/0") << true;
        QTest::addRow("GPT-2, 2 layers")
            << QStringLiteral("inductor_gpt2.log") << QStringLiteral("0/0") << true;
        QTest::addRow("Llama, 2 layers")
            << QStringLiteral("inductor_llama.log") << QStringLiteral("0/0") << true;
        QTest::addRow("GPT-2, dropout 0.1")
            << QStringLiteral("inductor_gpt2_dropout.log") << QStringLiteral("0/0") << true;
        QTest::addRow("GPT-2, bfloat16 autocast")
            << QStringLiteral("inductor_autocast.log") << QStringLiteral("0/0") << true;
        // nanoGPT's attention written out: scaled scores, a causal mask, softmax.
        QTest::addRow("nanoGPT, 2 blocks")
            << QStringLiteral("inductor_nanogpt.log") << QStringLiteral("0/0") << false;
        // LoRA fine-tuning: frozen base weights (inputs without gradients), trainable adapters.
        QTest::addRow("Llama, LoRA adapters")
            << QStringLiteral("inductor_lora.log") << QStringLiteral("0/0") << true;
        // Automatic dynamic shapes: compile 0/1 has symbolic sizes and saves SymInts.
        QTest::addRow("Conv1d-cat-slice-Linear, dynamic shapes")
            << QStringLiteral("inductor_dynamic.log") << QStringLiteral("0/1") << false;
        // Hugging Face's gradient checkpointing (non-reentrant): recompute tags on every layer.
        QTest::addRow("Llama, gradient checkpointing")
            << QStringLiteral("inductor_checkpointed.log") << QStringLiteral("4/0") << false;
    }

    /// Under Inductor, 2.14 decided after its joint-graph passes: with them replayed, our min-cut
    /// saves what PyTorch saved (the comparison the command line and the app make); without, it
    /// does not where a removed node lies on the cut (replayNeeded). (Its forward graph also holds
    /// the constants that constant folding made, full_default.)
    void realLogs()
    {
        QFETCH(QString, log);
        QFETCH(QString, id);
        QFETCH(bool, replayNeeded);
        const JointGraph graph = trace::loadTracedGraph(logFile(qPrintable(log)), id.toStdString());
        QVERIFY(decidedAfterInductorJointPasses(graph));
        const RecordedPartition* recorded = graph.recordedPartition("min_cut");
        QVERIFY(recorded);
        PartitionOptions options;
        options.rules = RuleSet::Torch214;
        options.config.inductorJointPasses = true;
        const PartitionResult ours = partitionGraph(graph, options);
        const auto comparison = compareWithRecorded(graph, ours);
        QVERIFY(comparison);
        QVERIFY2(comparison->identical(), describeDifferences(graph, *comparison).c_str());
        QCOMPARE(names(graph, ours.savedValues), recorded->savedValues);
        int removed = 0;
        for (char r : ours.removedByJointPasses)
            removed += r;
        QVERIFY(removed > 0);
        qInfo("%s: %d nodes removed by the replayed passes, %zu saved values as PyTorch's", qPrintable(log),
            removed, ours.savedValues.size());
        // The explanation says where a removed node's uses went.
        for (std::size_t i = 0; i < ours.removedByJointPasses.size(); ++i) {
            if (ours.removedByJointPasses[i]) {
                const std::string reason = decisionReason(graph, ours, static_cast<NodeId>(i));
                QVERIFY2(reason.find("Inductor's joint-graph passes") != std::string::npos, reason.c_str());
                break;
            }
        }
        options.config.inductorJointPasses = false;
        const PartitionResult asLogged = partitionGraph(graph, options);
        const auto withoutReplay = compareWithRecorded(graph, asLogged);
        QCOMPARE(!withoutReplay->identical(), replayNeeded);
        // A difference with the replay off is told so, with the replay as its remedy.
        const ProvenanceNote note = differenceExplanation(graph, asLogged, *withoutReplay);
        QCOMPARE(note.remedy, replayNeeded ? ProvenanceRemedy::ReplayInductorPasses : ProvenanceRemedy::None);
        QCOMPARE(note.text.find("their replay is off here") != std::string::npos, replayNeeded);
        QVERIFY(differenceExplanation(graph, ours, *comparison).text.empty());
    }

    /// JointPassReplay: auto follows the recording, on and off force it, and torch-1.13 never replays.
    void replayChoice()
    {
        const JointGraph inductor = trace::loadTracedGraph(logFile("inductor_gpt2.log"), "0/0");
        const JointGraph eager = trace::loadTracedGraph(logFile("blocks.log"), "0/0");
        QVERIFY(replaysInductorJointPasses(JointPassReplay::Auto, RuleSet::Torch214, inductor));
        QVERIFY(!replaysInductorJointPasses(JointPassReplay::Auto, RuleSet::Torch214, eager));
        QVERIFY(!replaysInductorJointPasses(JointPassReplay::Off, RuleSet::Torch214, inductor));
        QVERIFY(replaysInductorJointPasses(JointPassReplay::On, RuleSet::Torch214, eager));
        QVERIFY(!replaysInductorJointPasses(JointPassReplay::On, RuleSet::Torch113, inductor));
        QVERIFY(!replaysInductorJointPasses(JointPassReplay::Auto, RuleSet::Torch113, inductor));
        QCOMPARE(parseJointPassReplay("on"), std::optional(JointPassReplay::On));
        QCOMPARE(parseJointPassReplay("off"), std::optional(JointPassReplay::Off));
        QCOMPARE(parseJointPassReplay("auto"), std::optional(JointPassReplay::Auto));
        QVERIFY(!parseJointPassReplay("yes"));
        // Turned on where they find nothing, the plan says they ran; off, it says nothing of them.
        PartitionOptions options;
        options.rules = RuleSet::Torch214;
        options.config.inductorJointPasses = true;
        const PartitionResult replayed = partitionGraph(eager, options);
        QVERIFY(std::find(replayed.notes.begin(), replayed.notes.end(),
                    "Inductor's joint-graph passes, replayed: no no-op to remove")
            != replayed.notes.end());
        options.config.inductorJointPasses = false;
        for (const std::string& note : partitionGraph(eager, options).notes)
            QVERIFY2(note.find("Inductor") == std::string::npos, note.c_str());
    }

    /// Under an activation memory budget, 2.14's knapsack also chose among the nodes left after the
    /// passes: replayed, the budget plan saves PyTorch's set; without them, it saves a removed view.
    void budgetUnderInductor()
    {
        const JointGraph graph = trace::loadTracedGraph(logFile("inductor_budget.log"), "0/0");
        QVERIFY(decidedAfterInductorJointPasses(graph));
        const RecordedPartition* recorded = graph.recordedPartition("memory_budget_0.5");
        QVERIFY(recorded);
        PartitionOptions options;
        options.rules = RuleSet::Torch214;
        options.config.inductorJointPasses = true;
        const BudgetSession replayed(graph, options, BudgetOptions {});
        const BudgetedPlan plan = replayed.plan(0.5);
        QCOMPARE(plan.stage, BudgetStage::Knapsack);
        QCOMPARE(names(graph, plan.result.savedValues), recorded->savedValues);
        options.config.inductorJointPasses = false;
        const BudgetSession asLogged(graph, options, BudgetOptions {});
        QVERIFY(names(graph, asLogged.plan(0.5).result.savedValues) != recorded->savedValues);
    }
};

QTEST_GUILESS_MAIN(TestInductorJointPasses)
#include "tst_inductorjointpasses.moc"
