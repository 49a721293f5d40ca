// SPDX-License-Identifier: MIT
#include "budget/budget_io.h"

#include "budget/knapsack.h"
#include "budget/region_budget.h"
#include "budget/runtime_estimator.h"
#include "io/json_number.h"

#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>

#include <cmath>

namespace remat {
namespace {

std::string phaseName(Phase phase)
{
    return phase == Phase::Forward ? "forward" : "backward";
}

/// Shortest text that reads back as the same double; empty (undefined) when there is none.
std::string number(std::optional<double> value)
{
    return value && std::isfinite(*value) ? pythonFloat(*value) : std::string();
}

} // namespace

PlanExtras budgetPlanExtras(const JointGraph& graph, const BudgetedPlan& plan, std::string_view runtimeUnit)
{
    PlanExtras extras;
    extras["budget"] = plan.budget;
    extras["budget_stage"] = std::string(stageName(plan.stage));
    if (plan.metrics.memoryRatio)
        extras["memory_ratio"] = *plan.metrics.memoryRatio;
    else
        extras["memory_ratio"] = std::monostate {}; // null: undefined, see PlanMetrics
    extras["activation_bytes"] = plan.metrics.activationBytes;
    extras["estimated_runtime"] = plan.metrics.estimatedRuntime;
    extras["runtime_unit"] = std::string(runtimeUnit);
    if (plan.memory) {
        extras["peak_bytes"] = plan.memory->peakBytes;
        extras["peak_step"] = static_cast<std::int64_t>(plan.memory->peakStep);
        extras["peak_phase"] = phaseName(plan.memory->peakPhase);
        if (plan.memory->peakNode != kNoNode)
            extras["peak_node"] = graph.node(plan.memory->peakNode).name;
    }
    return extras;
}

std::string budgetPlanLabel(
    double budget, KnapsackSolver solver, RuntimeEstimatorKind estimator, const std::string& device)
{
    std::string label = "memory budget " + pythonFloat(budget) + " (torch-2.14 rules, "
        + std::string(solverName(solver)) + " knapsack, " + std::string(estimatorName(estimator))
        + " estimator";
    if (!device.empty())
        label += " on " + device;
    return label + ")";
}

void addBudgetSettings(
    PlanExtras& extras, KnapsackSolver solver, RuntimeEstimatorKind estimator, const std::string& device)
{
    extras["solver"] = std::string(solverName(solver));
    extras["estimator"] = std::string(estimatorName(estimator));
    if (!device.empty())
        extras["device"] = device;
}

std::string paretoToJson(
    const JointGraph& graph, const ParetoResult& result, const std::vector<RecordedBudgetPoint>& recorded)
{
    rapidjson::StringBuffer buffer;
    rapidjson::PrettyWriter<rapidjson::StringBuffer> w(buffer);
    w.SetIndent(' ', 1);
    const auto key = [&](const char* k) { w.Key(k); };
    const auto text
        = [&](const std::string& s) { w.String(s.data(), static_cast<rapidjson::SizeType>(s.size())); };
    const auto writeBytesOrNull = [&](const std::optional<std::int64_t>& bytes) {
        if (bytes)
            w.Int64(*bytes);
        else
            w.Null(); // the peak was not simulated
    };
    const auto names = [&](const std::vector<NodeId>& nodes) {
        w.StartArray();
        for (const NodeId id : nodes)
            text(graph.node(id).name);
        w.EndArray();
    };
    w.StartObject();
    key("runtime_unit");
    text(result.runtimeUnit);
    key("budgets_evaluated");
    w.Int(result.budgetsEvaluated);
    key("distinct_plans");
    w.Int(result.distinctPlans);
    key("cancelled");
    w.Bool(result.cancelled);
    key("seconds");
    writeNumberOrNull(w, result.seconds);
    key("points");
    w.StartArray();
    for (const auto& p : result.points) {
        w.StartObject();
        key("budget");
        writeNumberOrNull(w, p.budget);
        key("budget_max");
        writeNumberOrNull(w, p.budgetMax);
        key("activation_bytes");
        w.Int64(p.metrics.activationBytes);
        key("saved_bytes");
        w.Int64(p.metrics.savedBytes);
        key("memory_ratio");
        writeNumberOrNull(w, p.metrics.memoryRatio);
        key("estimated_runtime");
        writeNumberOrNull(w, p.metrics.estimatedRuntime);
        key("peak_bytes");
        writeBytesOrNull(p.metrics.peakBytes);
        key("on_frontier");
        w.Bool(p.onFrontier);
        key("saved_count");
        w.Int(p.savedCount);
        key("recomputed_count");
        w.Int(p.recomputedCount);
        key("stage");
        text(std::string(stageName(p.stage)));
        if (p.peakNode != kNoNode) {
            key("peak_node");
            text(graph.node(p.peakNode).name);
            key("peak_phase");
            text(phaseName(p.peakPhase));
        }
        w.EndObject();
    }
    w.EndArray();
    key("recorded");
    w.StartArray();
    for (const RecordedBudgetPoint& r : recorded) {
        w.StartObject();
        key("key");
        text(r.key);
        key("budget");
        writeNumberOrNull(w, r.budget);
        key("activation_bytes");
        w.Int64(r.metrics.activationBytes);
        key("estimated_runtime");
        writeNumberOrNull(w, r.metrics.estimatedRuntime);
        key("peak_bytes");
        writeBytesOrNull(r.metrics.peakBytes);
        key("saved_count");
        w.Uint64(r.saved.size());
        key("same_as_ours");
        w.Bool(r.sameAsOurs);
        key("saved_only_by_ours");
        names(r.savedOnlyByOurs);
        key("saved_only_by_pytorch");
        names(r.savedOnlyByPyTorch);
        w.EndObject();
    }
    w.EndArray();
    w.EndObject();
    return std::string(buffer.GetString(), buffer.GetSize()) + "\n";
}

std::string paretoToCsv(const ParetoResult& result)
{
    std::string out
        = "budget,budget_max,activation_bytes,estimated_runtime,peak_bytes,on_frontier,saved_count,"
          "recomputed_count,saved_bytes,memory_ratio,stage\n";
    for (const auto& p : result.points) {
        out += number(p.budget) + "," + number(p.budgetMax) + "," + std::to_string(p.metrics.activationBytes)
            + "," + number(p.metrics.estimatedRuntime) + ","
            + (p.metrics.peakBytes ? std::to_string(*p.metrics.peakBytes) : std::string()) + ","
            + (p.onFrontier ? "1" : "0") + "," + std::to_string(p.savedCount) + ","
            + std::to_string(p.recomputedCount) + "," + std::to_string(p.metrics.savedBytes) + ","
            + number(p.metrics.memoryRatio) + "," + std::string(stageName(p.stage)) + "\n";
    }
    return out;
}

std::string memoryTimelineToCsv(const JointGraph& graph, const MemoryProfile& profile)
{
    std::string out = "step,phase";
    out += ",node";
    for (std::size_t c = 0; c < kMemoryCategoryCount; ++c)
        out += "," + std::string(categoryName(static_cast<MemoryCategory>(c)));
    out += ",total\n";
    for (std::size_t i = 0; i < profile.timeline.size(); ++i) {
        const auto& step = profile.timeline[i];
        out += std::to_string(i) + "," + phaseName(step.phase) + "," + graph.node(step.node).name;
        for (auto bytes : step.bytes)
            out += "," + std::to_string(bytes);
        out += "," + std::to_string(step.total()) + "\n";
    }
    return out;
}

} // namespace remat
