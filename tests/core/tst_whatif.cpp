// SPDX-License-Identifier: MIT
// What-if: flipping a node's decision on real graphs, checked against independent runs of the
// partitioners (a fresh runner, so nothing is shared with the what-if's cache).
#include "budget/budget_session.h"
#include "explain/cut_neighbourhood.h"
#include "explain/explain_json.h"
#include "explain/what_if.h"
#include "explain_test_support.h"
#include "io/torch_trace.h"
#include "partition/partitioner.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <algorithm>
#include <chrono>
#include <memory>

using namespace remat;
using remat::testing::oracleGraph;

namespace {

enum class Mode { MinCut113, MinCutNewest, Default113, Budget };

PlanRequest requestFor(Mode mode, double budget = 0.5)
{
    PlanRequest r;
    if (mode == Mode::MinCutNewest || mode == Mode::Budget)
        r.options.rules = RuleSet::Newest;
    if (mode == Mode::Default113)
        r.options.partitioner = PartitionerKind::Default;
    if (mode == Mode::Budget)
        r.budget = budget;
    return r;
}

/// Up to `count` nodes of the decision, spread over the graph.
std::vector<NodeId> sample(const std::vector<NodeDecision>& decisions, NodeDecision wanted, std::size_t count)
{
    std::vector<NodeId> all;
    for (std::size_t i = 0; i < decisions.size(); ++i) {
        if (decisions[i] == wanted)
            all.push_back(static_cast<NodeId>(i));
    }
    std::vector<NodeId> picked;
    for (std::size_t k = 0; k < count && k < all.size(); ++k)
        picked.push_back(all[k * all.size() / std::min(count, all.size())]);
    return picked;
}

std::vector<NodeId> symmetricDifference(std::vector<NodeId> a, std::vector<NodeId> b)
{
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    std::vector<NodeId> out;
    std::set_symmetric_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
    return out;
}

/// The flip checked against a fresh runner: deltas, the node's new decision, the changed nodes.
/// A saved value that is not saved any more is recomputed, or, when the forward itself does not need
/// it, runs in the backward only.
void checkFlip(const JointGraph& graph, const PlanRequest& base, const WhatIf& w,
    std::initializer_list<NodeDecision> expectedAfter)
{
    QVERIFY(w.flipTag.has_value());
    if (!w.feasible) {
        QVERIFY2(!w.error.empty(), "an infeasible flip says why");
        QCOMPARE(w.after.peakBytes, w.before.peakBytes);
        return;
    }
    const PlanRunner fresh(graph, BudgetOptions {});
    const PlanRun before = fresh.run(base);
    const PlanRun after = fresh.run(withTag(base, w.flipNode, *w.flipTag));
    QCOMPARE(w.before.savedBytes, before.summary.savedBytes);
    QCOMPARE(w.after.savedBytes - w.before.savedBytes, after.summary.savedBytes - before.summary.savedBytes);
    QCOMPARE(w.after.peakBytes - w.before.peakBytes, after.summary.peakBytes - before.summary.peakBytes);
    QCOMPARE(w.after.estimatedRuntime - w.before.estimatedRuntime,
        after.summary.estimatedRuntime - before.summary.estimatedRuntime);
    QCOMPARE(w.after.recomputedCount, after.summary.recomputedCount);
    QCOMPARE(w.after.flooredRecomputeCount, after.summary.flooredRecomputeCount);
    const NodeDecision now = decisionOf(graph, after.result, w.node);
    const std::string why = graph.node(w.node).name + " is " + std::string(decisionName(now)) + ": "
        + decisionReason(graph, after.result, w.node, after.budget ? &*after.budget : nullptr);
    QVERIFY2(std::find(expectedAfter.begin(), expectedAfter.end(), now) != expectedAfter.end(), why.c_str());
    QCOMPARE(w.flipped, now != w.decision);
    // Every value saved by one plan only (the node aside) is among the changed nodes, and each
    // changed node really is decided differently or saved differently.
    auto saveChanged = symmetricDifference(before.result.savedValues, after.result.savedValues);
    std::erase(saveChanged, w.node);
    for (NodeId n : saveChanged)
        QVERIFY2(
            std::binary_search(w.changedNodes.begin(), w.changedNodes.end(), n), graph.node(n).name.c_str());
    for (NodeId n : w.changedNodes) {
        QVERIFY(n != w.node);
        const bool decided = decisionOf(graph, before.result, n) != decisionOf(graph, after.result, n);
        const bool saved = before.result.isSaved(n) != after.result.isSaved(n);
        QVERIFY2(decided || saved, graph.node(n).name.c_str());
    }
}

void addModes()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("mode");
    QTest::addRow("gpt_n2 min-cut torch-1.13") << "gpt_n2.json" << int(Mode::MinCut113);
    QTest::addRow("gpt_n2 min-cut newest") << "gpt_n2.json" << int(Mode::MinCutNewest);
    QTest::addRow("resnet min-cut torch-1.13") << "resnet_basic_block.json" << int(Mode::MinCut113);
    QTest::addRow("lstm min-cut newest") << "lstm_unrolled8.json" << int(Mode::MinCutNewest);
    QTest::addRow("gpt_n2 budget 0.5") << "gpt_n2.json" << int(Mode::Budget);
    QTest::addRow("torch2 gpt2 budget 0.5") << "torch2/hf_gpt2_train_loss.json" << int(Mode::Budget);
}

QJsonObject parseStrictly(const std::string& text)
{
    QJsonParseError error {};
    const auto doc = QJsonDocument::fromJson(QByteArray::fromStdString(text), &error);
    if (error.error != QJsonParseError::NoError)
        qWarning("%s at %d in:\n%s", qPrintable(error.errorString()), error.offset, text.c_str());
    return doc.object();
}

/// One graph's runner, the base request and up to `count` nodes the base plan decides as `wanted`.
struct Sampled {
    const JointGraph& graph;
    PlanRequest base;
    std::unique_ptr<PlanRunner> runner;
    std::vector<NodeId> nodes;
};

Sampled sampleNodes(const QString& file, int mode, NodeDecision wanted, std::size_t count)
{
    const JointGraph& graph = oracleGraph(file.toStdString());
    Sampled s {graph, requestFor(static_cast<Mode>(mode)),
        std::make_unique<PlanRunner>(graph, BudgetOptions {}), {}};
    s.nodes = sample(decisionsOf(graph, s.runner->run(s.base).result), wanted, count);
    return s;
}

} // namespace

class TestWhatIf : public QObject {
    Q_OBJECT

private slots:
    void savedBecomesRecomputed_data() { addModes(); }
    void savedBecomesRecomputed()
    {
        QFETCH(QString, file);
        QFETCH(int, mode);
        const Sampled s = sampleNodes(file, mode, NodeDecision::Saved, 4);
        const auto& [graph, base, runner, nodes] = s;
        QVERIFY2(!nodes.empty(), "the plan saves no unbanned call_function value");
        for (NodeId n : nodes) {
            const WhatIf w = whatIf(*runner, base, n);
            QCOMPARE(w.decision, NodeDecision::Saved);
            QCOMPARE(*w.flipTag, CheckpointPolicy::MustRecompute);
            checkFlip(graph, base, w, {NodeDecision::Recomputed, NodeDecision::Backward});
        }
    }

    void recomputedBecomesSaved_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("mode");
        QTest::addRow("gpt_n2 min-cut torch-1.13") << "gpt_n2.json" << int(Mode::MinCut113);
        QTest::addRow("transformer min-cut torch-1.13")
            << "transformer_encoder_block.json" << int(Mode::MinCut113);
        QTest::addRow("gpt_n2 min-cut newest") << "gpt_n2.json" << int(Mode::MinCutNewest);
        QTest::addRow("gpt_n2 budget 0.5") << "gpt_n2.json" << int(Mode::Budget);
        QTest::addRow("torch2 gpt2 budget 0.5") << "torch2/hf_gpt2_train_loss.json" << int(Mode::Budget);
    }
    void recomputedBecomesSaved()
    {
        QFETCH(QString, file);
        QFETCH(int, mode);
        const Sampled s = sampleNodes(file, mode, NodeDecision::Recomputed, 6);
        const auto& [graph, base, runner, nodes] = s;
        QVERIFY2(!nodes.empty(), "the plan recomputes nothing");
        int saved = 0;
        for (NodeId n : nodes) {
            const WhatIf w = whatIf(*runner, base, n);
            QCOMPARE(*w.flipTag, CheckpointPolicy::MustSave);
            if (base.options.rules == RuleSet::Torch113) {
                checkFlip(graph, base, w, {NodeDecision::Saved});
            } else {
                // The newest rules ban a MUST_SAVE node from recomputation, which saves it or, when the
                // backward reads only values computed from it, those; they never ban views or getitems,
                // so there the tag changes nothing (a getitem of a tuple op flips through its op).
                checkFlip(
                    graph, base, w, {NodeDecision::Saved, NodeDecision::Banned, NodeDecision::Recomputed});
            }
            saved += w.feasible && w.flipped ? 1 : 0;
        }
        QVERIFY2(saved > 0, "no sampled node changed its decision");
    }

    /// A getitem that a checkpoint region recomputes: 2.14's min-cut ignores its own MUST_SAVE (its
    /// should_ban_recomputation skips getitems; run in the chroot, tagging native_dropout's getitems
    /// alone kept the saved set, tagging the op saved the mask), so the flip tags the op it unpacks.
    void recomputedGetitemFlipsThroughTheOpItUnpacks()
    {
        const JointGraph graph
            = trace::loadTracedGraph(std::string(REMAT_TEST_DATA_DIR "/torch_trace/rng.log"), "0/0");
        PlanRequest base;
        base.options.rules = RuleSet::Newest;
        const PlanRunner runner(graph, BudgetOptions {});
        const NodeId value = graph.find("getitem_4");
        const NodeId dropout = graph.find("native_dropout_1");
        QCOMPARE(decisionOf(graph, runner.run(base).result, value), NodeDecision::Recomputed);

        const PlanRun ownTag = runner.run(withTag(base, value, CheckpointPolicy::MustSave));
        QCOMPARE(decisionOf(graph, ownTag.result, value), NodeDecision::Recomputed);

        const WhatIf w = whatIf(runner, base, value);
        QCOMPARE(w.flipNode, dropout);
        QCOMPARE(*w.flipTag, CheckpointPolicy::MustSave);
        QVERIFY(w.flipped);
        checkFlip(graph, base, w, {NodeDecision::Saved});
        QVERIFY(std::binary_search(w.changedNodes.begin(), w.changedNodes.end(), graph.find("getitem_5")));
        const QJsonObject flip = parseStrictly(whatIfToJson(graph, w, std::nullopt)).value("flip").toObject();
        QCOMPARE(flip.value("tagged_node").toString(), QStringLiteral("native_dropout_1"));

        // A node that is not a getitem keeps the flip on itself.
        const WhatIf op = whatIf(runner, base, dropout);
        QCOMPARE(op.flipNode, dropout);
    }

    /// PyTorch's flops estimator counts 1 for an op without a FLOP formula: recomputing tanh's
    /// five pointwise producers costs "+5 FLOP", and the summary says that all five are such ops.
    /// A matmul's flip moves real FLOPs and still counts its pointwise neighbours apart.
    void flopDeltasCountOpsWithoutAFormula()
    {
        const JointGraph& graph = oracleGraph("torch2/hf_gpt2_train_loss.json");
        PlanRequest base;
        base.options.rules = RuleSet::Newest;
        const PlanRunner runner(graph, BudgetOptions {});
        const WhatIf pointwise = whatIf(runner, base, graph.find("tanh"));
        QVERIFY(pointwise.flipped);
        const int added = pointwise.after.recomputedCount - pointwise.before.recomputedCount;
        QCOMPARE(added, 5);
        QCOMPARE(pointwise.after.flooredRecomputeCount - pointwise.before.flooredRecomputeCount, added);
        QCOMPARE(pointwise.after.estimatedRuntime - pointwise.before.estimatedRuntime, double(added));

        const WhatIf matmul = whatIf(runner, base, graph.find("addmm_2"));
        QVERIFY(matmul.flipped);
        const double delta = matmul.after.estimatedRuntime - matmul.before.estimatedRuntime;
        const int floored = matmul.after.flooredRecomputeCount - matmul.before.flooredRecomputeCount;
        QCOMPARE(floored, matmul.after.recomputedCount - matmul.before.recomputedCount - 1);
        QCOMPARE(delta - floored, 2.0 * 32 * 64 * 256); // addmm_2: [32, 64] x [64, 256]
    }

    void bannedFlipOnlyWhereTheTagTakesAndInputsNever()
    {
        const JointGraph& graph = oracleGraph("gpt_n2.json");
        const PlanRequest base = requestFor(Mode::MinCut113);
        const PlanRunner runner(graph, BudgetOptions {});
        const PartitionResult result = runner.run(base).result;
        QVERIFY(!result.banned.empty());
        int flippable = 0, fixed = 0;
        for (const auto& ban : result.banned) {
            if (graph.node(ban.node).op == NodeOp::Placeholder)
                continue;
            const WhatIf w = whatIf(runner, base, ban.node);
            QCOMPARE(w.decision, NodeDecision::Banned);
            QVERIFY2(QString::fromStdString(w.reason).contains(QString::fromStdString(ban.reason)),
                w.reason.c_str());
            // Independently: what the partitioner does with the node tagged MUST_RECOMPUTE.
            bool takes = false;
            try {
                PlanRequest tagged = base;
                tagged.options.tags.emplace_back(ban.node, CheckpointPolicy::MustRecompute);
                takes = decisionsOf(graph, runner.run(tagged).result)[static_cast<std::size_t>(ban.node)]
                    != NodeDecision::Banned;
            } catch (const Error&) { }
            const QJsonObject json = parseStrictly(whatIfToJson(graph, w, std::nullopt));
            QCOMPARE(json.value("decision").toString(), QStringLiteral("banned"));
            if (takes) {
                ++flippable;
                QCOMPARE(w.flipTag, std::optional<CheckpointPolicy>(CheckpointPolicy::MustRecompute));
                QVERIFY(w.flipped);
                QCOMPARE(
                    json.value("flip").toObject().value("tag").toString(), QStringLiteral("MUST_RECOMPUTE"));
            } else {
                ++fixed;
                QVERIFY(!w.flipTag);
                QVERIFY(w.changedNodes.empty());
                QCOMPARE(w.after.peakBytes, w.before.peakBytes);
                QVERIFY(json.value("flip").isNull());
            }
            if (flippable + fixed >= 40)
                break;
        }
        QVERIFY2(flippable > 0, "torch-1.13's op-list bans give way to a MUST_RECOMPUTE tag");
        const WhatIf input = whatIf(runner, base, graph.find("primals_1"));
        QCOMPARE(input.decision, NodeDecision::Input);
        QVERIFY(!input.flipTag);
        QVERIFY(input.reason.find("input") != std::string::npos);
        const WhatIf tangent = whatIf(runner, base, graph.find("tangents_1"));
        QCOMPARE(tangent.decision, NodeDecision::Input);
    }

    void jsonHasTheScriptKeys()
    {
        const JointGraph& graph = oracleGraph("gpt_n2.json");
        const PlanRequest base = requestFor(Mode::MinCut113);
        const PlanRunner runner(graph, BudgetOptions {});
        const PlanRun run = runner.run(base);
        const NodeId n = sample(decisionsOf(graph, run.result), NodeDecision::Saved, 1).front();
        const WhatIf w = whatIf(runner, base, n);
        const QJsonObject json
            = parseStrictly(whatIfToJson(graph, w, cutNeighbourhood(runner, base, run.result, n)));
        QCOMPARE(json.value("node").toString(), QString::fromStdString(graph.node(n).name));
        QCOMPARE(json.value("decision").toString(), QStringLiteral("saved"));
        QVERIFY(!json.value("reason").toString().isEmpty());
        const QJsonObject flip = json.value("flip").toObject();
        QCOMPARE(flip.value("tag").toString(), QStringLiteral("MUST_RECOMPUTE"));
        QCOMPARE(flip.value("saved_bytes_delta").toInteger(), w.after.savedBytes - w.before.savedBytes);
        QCOMPARE(flip.value("peak_bytes_delta").toInteger(), w.after.peakBytes - w.before.peakBytes);
        QCOMPARE(
            flip.value("runtime_delta").toDouble(), w.after.estimatedRuntime - w.before.estimatedRuntime);
        QCOMPARE(flip.value("changed_nodes").toArray().size(), static_cast<qsizetype>(w.changedNodes.size()));
        const QJsonObject cut = json.value("cut").toObject();
        QCOMPARE(cut.value("save_edge").toObject().value("on_cut").toBool(), true);
        QVERIFY(cut.value("save_edge").toObject().value("capacity").toInteger() > 0);
    }

    /// The cut around a saved node: its own edge is cut, its capacities are the partitioner's weights.
    void cutNeighbourhoodOfASavedNode()
    {
        const JointGraph& graph = oracleGraph("mlp3_relu.json");
        const PlanRequest base = requestFor(Mode::MinCut113);
        const PlanRunner runner(graph, BudgetOptions {});
        const PartitionResult result = runner.run(base).result;
        const NodeId relu = graph.find("relu");
        QVERIFY(result.isSaved(relu));
        const CutNeighbourhood c = cutNeighbourhood(runner, base, result, relu);
        QVERIFY(c.minCut);
        QCOMPARE(c.cutValue, result.cutValue);
        QVERIFY(c.self.onCut);
        QCOMPARE(c.self.capacity, result.weights[static_cast<std::size_t>(relu)]);
        QVERIFY(!c.producers.empty());
        QVERIFY(!c.consumers.empty());
        for (const auto& e : c.consumers)
            QCOMPARE(e.onCut, result.isSaved(e.node));
        QVERIFY(!c.knapsack);
    }

    /// Under a budget decided by the knapsack, its items have a rank and a value per byte.
    void knapsackRank()
    {
        const JointGraph& graph = oracleGraph("gpt_n8.json");
        const PlanRunner runner(graph, BudgetOptions {});
        const PlanRequest base = requestFor(Mode::Budget, 0.3);
        const PlanRun run = runner.run(base);
        QVERIFY(run.budget.has_value());
        QCOMPARE(run.budget->stage, BudgetStage::Knapsack);
        const auto session = runner.budgetSession(base);
        const auto& items = session->planner().items();
        QVERIFY(!items.empty());
        int kept = 0;
        for (const auto& item : items) {
            const CutNeighbourhood c = cutNeighbourhood(runner, base, run.result, item.node);
            QVERIFY(c.knapsack.has_value());
            QCOMPARE(c.knapsack->itemCount, static_cast<int>(items.size()));
            QVERIFY(c.knapsack->rank >= 1 && c.knapsack->rank <= c.knapsack->itemCount);
            QCOMPARE(c.knapsack->bytes, item.bytes);
            kept += c.knapsack->kept ? 1 : 0;
        }
        QCOMPARE(kept, static_cast<int>(items.size() - run.budget->recomputable.size()));
    }

    /// Not an assertion on time: the figures for the report (17k nodes).
    void timingOnGptN96_data()
    {
        QTest::addColumn<int>("mode");
        QTest::addRow("min-cut torch-1.13") << int(Mode::MinCut113);
        QTest::addRow("min-cut newest") << int(Mode::MinCutNewest);
        QTest::addRow("default torch-1.13") << int(Mode::Default113);
        QTest::addRow("budget 0.5") << int(Mode::Budget);
    }
    void timingOnGptN96()
    {
        QFETCH(int, mode);
        const JointGraph& graph = oracleGraph("gpt_n96.json");
        const PlanRequest base = requestFor(static_cast<Mode>(mode));
        const PlanRunner runner(graph, BudgetOptions {});
        using Clock = std::chrono::steady_clock;
        const auto ms = [](Clock::time_point from) {
            return std::chrono::duration<double, std::milli>(Clock::now() - from).count();
        };
        auto start = Clock::now();
        const PlanRun run = runner.run(base);
        const double baseMs = ms(start);
        const auto decisions = decisionsOf(graph, run.result);
        auto nodes = sample(decisions, NodeDecision::Saved, 3);
        const auto recomputed = sample(decisions, NodeDecision::Recomputed, 3);
        nodes.insert(nodes.end(), recomputed.begin(), recomputed.end());
        QVERIFY(!nodes.empty());
        double worst = 0, total = 0;
        for (NodeId n : nodes) {
            start = Clock::now();
            const WhatIf w = whatIf(runner, base, n);
            const double t = ms(start);
            worst = std::max(worst, t);
            total += t;
            QVERIFY(w.flipTag.has_value());
        }
        qInfo("gpt_n96 what-if (%s): base plan %.0f ms once, then per node %.0f ms mean, %.0f ms worst over "
              "%zu nodes",
            QTest::currentDataTag(), baseMs, total / static_cast<double>(nodes.size()), worst, nodes.size());
    }
};

QTEST_GUILESS_MAIN(TestWhatIf)
#include "tst_whatif.moc"
