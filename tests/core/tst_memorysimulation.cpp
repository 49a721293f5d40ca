// SPDX-License-Identifier: MIT
// The peak-memory simulation: forward, then the backward in autograd order, on a graph small
// enough to work out by hand, and order properties on a real GPT.
#include "budget/backward_order.h"
#include "budget/budget_session.h"
#include "budget_test_support.h"
#include "graph/error.h"

#include <QTest>

using namespace remat;
using remat::testing::f32;
using remat::testing::graphFromNodes;

namespace {

std::string n(
    const std::string& name, const std::string& op, const std::string& target, const std::string& args)
{
    return R"({"name":")" + name + R"(","op":")" + op + R"(","target":")" + target + R"(","args":)" + args
        + R"(,"kwargs":{},"val":)" + f32({2, 2}) + R"(,"meta":{}})";
}
std::string ref(const char* name)
{
    return std::string(R"({"node":")") + name + R"("})";
}

/// f(x) = sin(cos(x)); every value is 2x2 float32 = 16 bytes.
JointGraph sinCos()
{
    const std::string nodes = "[" + n("primals_1", "placeholder", "primals_1", "[]") + ","
        + n("tangents_1", "placeholder", "tangents_1", "[]") + ","
        + n("cos", "call_function", "aten.cos.default", "[" + ref("primals_1") + "]") + ","
        + n("sin", "call_function", "aten.sin.default", "[" + ref("cos") + "]") + ","
        + n("cos_1", "call_function", "aten.cos.default", "[" + ref("cos") + "]") + ","
        + n("mul", "call_function", "aten.mul.Tensor", "[" + ref("tangents_1") + "," + ref("cos_1") + "]")
        + "," + n("sin_1", "call_function", "aten.sin.default", "[" + ref("primals_1") + "]") + ","
        + n("neg", "call_function", "aten.neg.default", "[" + ref("sin_1") + "]") + ","
        + n("mul_1", "call_function", "aten.mul.Tensor", "[" + ref("mul") + "," + ref("neg") + "]") + ","
        + R"({"name":"output","op":"output","target":"output","args":[[)" + ref("sin") + "," + ref("mul_1")
        + R"(]],"kwargs":{},"val":null,"meta":{}})" + "]";
    return graphFromNodes(nodes, 1, "sincos.json");
}

/// The plan that saves exactly `names`, cut out as the memory command does.
PartitionResult planSaving(const BudgetSession& session, std::initializer_list<const char*> names)
{
    MinCutSolution solution;
    for (const char* name : names)
        solution.saved.push_back(session.graph().find(name));
    std::sort(solution.saved.begin(), solution.saved.end());
    solution.weights.assign(session.graph().size(), PartitionResult::kNoWeightEdge);
    PartitionResult result;
    session.prepared().finish(std::move(solution), result);
    return result;
}

std::vector<std::int64_t> totals(const MemoryProfile& profile)
{
    std::vector<std::int64_t> out;
    for (const auto& step : profile.timeline)
        out.push_back(step.total());
    return out;
}

std::vector<std::string> names(const JointGraph& graph, const std::vector<NodeId>& nodes)
{
    std::vector<std::string> out;
    for (NodeId id : nodes)
        out.push_back(graph.node(id).name);
    return out;
}

} // namespace

class TestMemorySimulation : public QObject {
    Q_OBJECT

private slots:
    void savingTheActivation()
    {
        const JointGraph graph = sinCos();
        const BudgetSession session(graph, {}, {});
        const PartitionResult plan = planSaving(session, {"primals_1", "cos"});
        const MemoryProfile profile = simulateMemory(session.prepared().graph(), session.storages(), plan);
        // Forward: x, +cos (saved), +sin (output). Backward starts with x, cos, sin and the tangent:
        // +cos_1, free cos; +mul, free cos_1 and the tangent; +sin_1; +neg, free sin_1; +mul_1 (grad).
        QCOMPARE(totals(profile), (std::vector<std::int64_t> {32, 48, 80, 80, 64, 80, 80}));
        QCOMPARE(profile.forwardSteps, 2);
        QCOMPARE(profile.peakBytes, std::int64_t {80});
        QCOMPARE(profile.peakStep, 2); // the first time 80 bytes are live
        QCOMPARE(profile.peakPhase, Phase::Backward);
        QCOMPARE(graph.node(profile.peakNode).name, std::string("cos_1"));
        const auto& at = profile.timeline[2].bytes;
        QCOMPARE(at[static_cast<std::size_t>(MemoryCategory::Inputs)], std::int64_t {16});
        QCOMPARE(at[static_cast<std::size_t>(MemoryCategory::Saved)], std::int64_t {16});
        QCOMPARE(at[static_cast<std::size_t>(MemoryCategory::Outputs)], std::int64_t {16});
        QCOMPARE(at[static_cast<std::size_t>(MemoryCategory::Gradients)], std::int64_t {16});
        QCOMPARE(at[static_cast<std::size_t>(MemoryCategory::Temporaries)], std::int64_t {16});
        QCOMPARE(profile.liveAtPeak.size(), std::size_t {5});
    }

    void offloadedValueWaitsOnTheHost()
    {
        const JointGraph graph = sinCos();
        const BudgetSession session(graph, {}, {});
        PartitionResult plan = planSaving(session, {"primals_1", "cos", "sin_1"});
        const MemoryProfile kept = simulateMemory(session.prepared().graph(), session.storages(), plan);
        plan.offloaded = {graph.find("sin_1")};
        const MemoryProfile offloaded = simulateMemory(session.prepared().graph(), session.storages(), plan);
        QCOMPARE(offloaded.timeline.size(), kept.timeline.size());
        // sin_1 leaves the device after its last forward use and comes back for its first backward
        // use (neg): the bytes move, none appear or vanish.
        int onHost = 0;
        for (std::size_t i = 0; i < kept.timeline.size(); ++i) {
            const MemoryStep& k = kept.timeline[i];
            const MemoryStep& o = offloaded.timeline[i];
            QCOMPARE(o.total() + o.hostBytes, k.total());
            QCOMPARE(k.hostBytes, std::int64_t {0});
            if (o.hostBytes > 0) {
                QCOMPARE(o.hostBytes, std::int64_t {16});
                QCOMPARE(o.phase, Phase::Backward);
                QVERIFY(graph.node(o.node).name != "neg"); // reloaded before neg runs
                ++onHost;
            }
        }
        QVERIFY(onHost > 0);
        QCOMPARE(offloaded.timeline.back().hostBytes, std::int64_t {0});
        QCOMPARE(offloaded.peakHostBytes, std::int64_t {16});
        QVERIFY(offloaded.peakBytes < kept.peakBytes);
    }

    void recomputingTheActivation()
    {
        const JointGraph graph = sinCos();
        const BudgetSession session(graph, {}, {});
        const PartitionResult plan = planSaving(session, {"primals_1"});
        QCOMPARE(names(graph, plan.recomputed), (std::vector<std::string> {"cos"}));
        const MemoryProfile profile = simulateMemory(session.prepared().graph(), session.storages(), plan);
        // The recomputed cos is made right before its first backward consumer (autograd order).
        QCOMPARE(names(graph, profile.backwardOrder),
            (std::vector<std::string> {
                "primals_1", "tangents_1", "cos", "cos_1", "mul", "sin_1", "neg", "mul_1"}));
        QCOMPARE(totals(profile), (std::vector<std::int64_t> {32, 48, 64, 80, 80, 64, 80, 80}));
        QCOMPARE(profile.peakStep, 3);
        QCOMPARE(profile.timeline[2].bytes[static_cast<std::size_t>(MemoryCategory::Recomputed)],
            std::int64_t {16});
        QCOMPARE(
            profile.timeline[2].bytes[static_cast<std::size_t>(MemoryCategory::Saved)], std::int64_t {0});
    }

    void liveAtEveryStepSumsToTheTimeline()
    {
        // What a click on the timeline lists: the tensors alive at that step, whose bytes add up
        // to the step's total; at the peak step, exactly the tensors the profile lists there.
        const JointGraph graph = sinCos();
        const BudgetSession session(graph, {}, {});
        const PartitionResult plan = planSaving(session, {"primals_1", "cos"});
        const MemorySimulator simulator(session.prepared().graph(), session.storages());
        const MemoryProfile profile = simulator.run(plan);
        for (std::size_t step = 0; step < profile.timeline.size(); ++step) {
            const std::vector<LiveTensor> live = simulator.liveAt(plan, static_cast<int>(step));
            std::int64_t bytes = 0;
            for (const LiveTensor& t : live)
                bytes += t.bytes;
            QCOMPARE(bytes, profile.timeline[step].total());
        }
        const std::vector<LiveTensor> atPeak = simulator.liveAt(plan, profile.peakStep);
        QCOMPARE(atPeak.size(), profile.liveAtPeak.size());
        for (std::size_t i = 0; i < atPeak.size(); ++i)
            QCOMPARE(atPeak[i].owner, profile.liveAtPeak[i].owner);
    }

    void timelineCanBeSkipped()
    {
        const JointGraph graph = sinCos();
        const BudgetSession session(graph, {}, {});
        const PartitionResult plan = planSaving(session, {"primals_1", "cos"});
        const auto lean
            = simulateMemory(session.prepared().graph(), session.storages(), plan, {false, false});
        QVERIFY(lean.timeline.empty());
        QVERIFY(lean.liveAtPeak.empty());
        QCOMPARE(lean.peakBytes, std::int64_t {80});
        QCOMPARE(lean.peakStep, 2);
    }

    void autogradOrderOnAGpt_data()
    {
        QTest::addColumn<double>("budget");
        QTest::newRow("recompute everything") << 0.0;
        QTest::newRow("knapsack") << 0.3;
        QTest::newRow("plain min-cut") << 1.0;
    }
    void autogradOrderOnAGpt()
    {
        QFETCH(double, budget);
        const JointGraph graph = loadGraphFile(testing::oraclePath("gpt_n2.json"));
        const BudgetSession session(graph, {}, {});
        const BudgetedPlan plan = session.plan(budget, MemorySimulationOptions {});
        const auto& order = plan.memory->backwardOrder;
        // A permutation of the backward graph in which every node follows its inputs.
        auto sortedOrder = order;
        auto sortedNodes = plan.result.bwNodes;
        std::sort(sortedOrder.begin(), sortedOrder.end());
        std::sort(sortedNodes.begin(), sortedNodes.end());
        QCOMPARE(sortedOrder, sortedNodes);
        std::vector<int> position(graph.size(), -1);
        for (std::size_t i = 0; i < order.size(); ++i)
            position[static_cast<std::size_t>(order[i])] = static_cast<int>(i);
        for (NodeId node : order) {
            if (plan.result.isSaved(node) || graph.node(node).op == NodeOp::Placeholder)
                continue; // an input of the backward graph
            for (NodeId input : session.prepared().graph().inputs(node)) {
                if (position[static_cast<std::size_t>(input)] >= 0)
                    QVERIFY(
                        position[static_cast<std::size_t>(input)] < position[static_cast<std::size_t>(node)]);
            }
        }
        QCOMPARE(plan.memory->timeline.size(),
            static_cast<std::size_t>(plan.memory->forwardSteps) + order.size()
                - plan.result.savedValues.size() - 1);
        // The peak covers at least the inputs and what the backward starts with.
        QVERIFY(plan.memory->peakBytes >= plan.metrics.activationBytes);
    }
};

QTEST_GUILESS_MAIN(TestMemorySimulation)
#include "tst_memorysimulation.moc"
