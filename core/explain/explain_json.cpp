// SPDX-License-Identifier: MIT
#include "explain/explain_json.h"

#include "graph/checkpoint_policy.h"

#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>

#include <cmath>

namespace remat {
namespace {

using Writer = rapidjson::PrettyWriter<rapidjson::StringBuffer>;

void string(Writer& w, std::string_view text)
{
    w.String(text.data(), static_cast<rapidjson::SizeType>(text.size()));
}

/// RapidJSON writes nothing for NaN or infinity (the output would not parse): null instead.
void number(Writer& w, double value)
{
    if (std::isfinite(value))
        w.Double(value);
    else
        w.Null();
}

void names(Writer& w, const JointGraph& graph, const std::vector<NodeId>& nodes)
{
    w.StartArray();
    for (NodeId n : nodes)
        string(w, graph.node(n).name);
    w.EndArray();
}

void summary(Writer& w, const PlanSummary& s)
{
    w.StartObject();
    w.Key("saved_bytes");
    w.Int64(s.savedBytes);
    w.Key("activation_bytes");
    w.Int64(s.activationBytes);
    w.Key("peak_bytes");
    w.Int64(s.peakBytes);
    w.Key("estimated_runtime");
    number(w, s.estimatedRuntime);
    w.Key("runtime_unit");
    string(w, s.runtimeUnit);
    w.Key("saved_count");
    w.Int(s.savedCount);
    w.Key("saved_sym_count");
    w.Int(s.savedSymCount);
    w.Key("rng_state_count");
    w.Int(s.rngStateCount);
    w.Key("recomputed_count");
    w.Int(s.recomputedCount);
    w.Key("banned_count");
    w.Int(s.bannedCount);
    w.EndObject();
}

void flip(Writer& w, const JointGraph& graph, const WhatIf& f)
{
    if (!f.flipTag) {
        w.Null();
        return;
    }
    w.StartObject();
    w.Key("tag");
    string(w, checkpointPolicyName(*f.flipTag));
    w.Key("tagged_node"); // the node itself, or the multi-output op a getitem unpacks
    string(w, graph.node(f.flipNode).name);
    w.Key("feasible");
    w.Bool(f.feasible);
    if (!f.feasible) {
        w.Key("error");
        string(w, f.error);
    }
    w.Key("flipped");
    w.Bool(f.flipped);
    w.Key("saved_bytes_delta");
    w.Int64(f.after.savedBytes - f.before.savedBytes);
    w.Key("activation_bytes_delta");
    w.Int64(f.after.activationBytes - f.before.activationBytes);
    w.Key("peak_bytes_delta");
    w.Int64(f.after.peakBytes - f.before.peakBytes);
    w.Key("runtime_delta");
    number(w, f.after.estimatedRuntime - f.before.estimatedRuntime);
    w.Key("runtime_unit");
    string(w, f.before.runtimeUnit);
    w.Key("recomputed_count_delta");
    w.Int(f.after.recomputedCount - f.before.recomputedCount);
    w.Key("changed_nodes");
    names(w, graph, f.changedNodes);
    w.Key("after");
    summary(w, f.after);
    w.EndObject();
}

void edge(Writer& w, const JointGraph& graph, const SaveEdge& e)
{
    w.StartObject();
    w.Key("node");
    string(w, graph.node(e.node).name);
    w.Key("capacity"); // "inf": never cut; null: the node has no save edge
    if (e.capacity == PartitionResult::kInfiniteWeight)
        string(w, "inf");
    else if (e.capacity == PartitionResult::kNoWeightEdge)
        w.Null();
    else
        w.Int64(e.capacity);
    w.Key("on_cut");
    w.Bool(e.onCut);
    w.EndObject();
}

void edges(Writer& w, const JointGraph& graph, const std::vector<SaveEdge>& list)
{
    w.StartArray();
    for (const auto& e : list)
        edge(w, graph, e);
    w.EndArray();
}

void cut(Writer& w, const JointGraph& graph, const CutNeighbourhood& c)
{
    w.StartObject();
    w.Key("min_cut");
    w.Bool(c.minCut);
    w.Key("weight_unit");
    string(w, c.weightUnit);
    w.Key("cut_value");
    if (c.cutValue)
        w.Int64(*c.cutValue);
    else
        w.Null();
    w.Key("save_edge");
    edge(w, graph, c.self);
    w.Key("producers");
    edges(w, graph, c.producers);
    w.Key("consumers");
    edges(w, graph, c.consumers);
    w.EndObject();
}

void knapsack(Writer& w, const std::optional<KnapsackPlace>& k)
{
    if (!k) {
        w.Null();
        return;
    }
    w.StartObject();
    w.Key("bytes");
    w.Int64(k->bytes);
    w.Key("memory");
    number(w, k->memory);
    w.Key("runtime");
    number(w, k->runtime);
    w.Key("runtime_unit");
    string(w, k->runtimeUnit);
    w.Key("runtime_per_byte");
    number(w, k->runtimePerByte);
    w.Key("rank");
    w.Int(k->rank);
    w.Key("item_count");
    w.Int(k->itemCount);
    w.Key("kept");
    w.Bool(k->kept);
    w.EndObject();
}

std::string finish(const rapidjson::StringBuffer& buffer)
{
    return std::string(buffer.GetString(), buffer.GetSize()) + "\n";
}

} // namespace

std::string whatIfToJson(const JointGraph& graph, const WhatIf& f, const std::optional<CutNeighbourhood>& c)
{
    rapidjson::StringBuffer buffer;
    Writer w(buffer);
    w.SetIndent(' ', 1);
    w.SetFormatOptions(rapidjson::kFormatSingleLineArray);
    w.StartObject();
    w.Key("node");
    string(w, graph.node(f.node).name);
    if (const std::string& input = graph.node(f.node).meta.source->inputName; !input.empty()) {
        w.Key("input_name"); // the model's name of a graph input, when the file says
        string(w, input);
    }
    w.Key("decision");
    string(w, decisionName(f.decision));
    w.Key("reason");
    string(w, f.reason);
    w.Key("flip");
    flip(w, graph, f);
    w.Key("before");
    summary(w, f.before);
    if (c) {
        w.Key("cut");
        cut(w, graph, *c);
        w.Key("knapsack");
        knapsack(w, c->knapsack);
    }
    w.EndObject();
    return finish(buffer);
}

std::string comparisonToJson(const JointGraph& graph, const PlanComparison& comparison,
    const std::string& labelA, const std::string& labelB)
{
    rapidjson::StringBuffer buffer;
    Writer w(buffer);
    w.SetIndent(' ', 1);
    w.SetFormatOptions(rapidjson::kFormatSingleLineArray);
    w.StartObject();
    w.Key("only_in_a");
    names(w, graph, comparison.onlyInA);
    w.Key("only_in_b");
    names(w, graph, comparison.onlyInB);
    w.Key("in_both_count");
    w.Uint64(comparison.inBoth.size());
    w.Key("a_source");
    string(w, labelA);
    w.Key("b_source");
    string(w, labelB);
    w.Key("a");
    summary(w, comparison.a);
    w.Key("b");
    summary(w, comparison.b);
    w.EndObject();
    return finish(buffer);
}

} // namespace remat
