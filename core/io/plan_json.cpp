// SPDX-License-Identifier: MIT
#include "io/plan_json.h"

#include "graph/checkpoint_policy.h"
#include "graph/error.h"
#include "io/file_text.h"
#include "io/json_number.h"
#include "io/json_syntax_check.h"
#include "partition/rng_states.h"

#include <rapidjson/document.h>
#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

namespace remat {
namespace {

template <typename Writer>
void writeNames(Writer& w, const JointGraph& graph, const std::vector<NodeId>& nodes)
{
    w.StartArray();
    for (NodeId n : nodes) {
        const auto& name = graph.node(n).name;
        w.String(name.data(), static_cast<rapidjson::SizeType>(name.size()));
    }
    w.EndArray();
}

template <typename Writer> void writeText(Writer& w, std::string_view text)
{
    w.String(text.data(), static_cast<rapidjson::SizeType>(text.size()));
}

/// "made_with": the partitioner, rules, op list, offloading, Inductor's replayed joint-graph passes
/// (only when they ran) and the user's tags the plan came
/// from, so that the file says how to make it again (a budget plan's settings are top-level keys).
template <typename Writer>
void writeMadeWith(Writer& w, const JointGraph& graph, const PartitionOptions& options, bool budget)
{
    w.Key("made_with");
    w.StartObject();
    w.Key("partitioner");
    writeText(w, budget ? std::string_view("memory-budget") : partitionerName(options.partitioner));
    w.Key("rules");
    writeText(w, ruleSetName(options.rules));
    w.Key("compiler");
    writeText(w, compilerName(options.compiler));
    w.Key("activation_offloading");
    w.Bool(options.config.activationOffloading);
    if (options.config.inductorJointPasses && options.rules == RuleSet::Newest) {
        // Only when they ran: every other plan file stays as it was.
        w.Key("inductor_joint_passes");
        w.Bool(true);
    }
    w.Key("tags");
    w.StartObject();
    for (const auto& [node, policy] : options.tags) {
        if (node < 0 || static_cast<std::size_t>(node) >= graph.size())
            continue; // partitionGraph refuses such a tag: no plan carries one
        const auto& name = graph.node(node).name;
        w.Key(name.data(), static_cast<rapidjson::SizeType>(name.size()));
        writeText(w, checkpointPolicyName(policy));
    }
    w.EndObject();
    w.EndObject();
}

template <typename Writer>
void writePlan(Writer& w, const JointGraph& graph, const PartitionResult& r, const PlanExtras& extras)
{
    w.StartObject();
    w.Key("saved_values");
    writeNames(w, graph, r.savedValues);
    w.Key("saved_sym_nodes");
    writeNames(w, graph, r.savedSymNodes);
    w.Key("fw_nodes");
    writeNames(w, graph, r.fwNodes);
    w.Key("bw_nodes");
    writeNames(w, graph, r.bwNodes);
    w.Key("recomputed");
    writeNames(w, graph, r.recomputed);
    w.Key("banned");
    w.StartObject();
    for (const auto& b : r.banned) {
        const auto& name = graph.node(b.node).name;
        w.Key(name.data(), static_cast<rapidjson::SizeType>(name.size()));
        w.String(b.reason.data(), static_cast<rapidjson::SizeType>(b.reason.size()));
    }
    w.EndObject();
    if (r.options.config.activationOffloading) { // only then: other plans keep their keys
        w.Key("offloaded");
        writeNames(w, graph, r.offloaded);
        w.Key("offload_refused");
        w.StartObject();
        for (const auto& x : r.offloadRefused) {
            const auto& name = graph.node(x.node).name;
            w.Key(name.data(), static_cast<rapidjson::SizeType>(name.size()));
            w.String(x.reason.data(), static_cast<rapidjson::SizeType>(x.reason.size()));
        }
        w.EndObject();
        w.Key("offloaded_bytes");
        w.Int64(r.offloadedBytes);
    }
    if (const auto rng = savedRngStateOps(graph, r); !rng.empty()) { // only then, as "offloaded"
        w.Key("rng_state_ops");
        writeNames(w, graph, rng);
    }
    w.Key("saved_bytes");
    w.Int64(r.savedBytes);
    w.Key("cut_value");
    if (r.cutValue)
        w.Int64(*r.cutValue);
    else
        w.Null();
    writeMadeWith(w, graph, r.options, extras.count("budget") != 0);
    for (const auto& [key, value] : extras) {
        w.Key(key.data(), static_cast<rapidjson::SizeType>(key.size()));
        if (std::holds_alternative<std::monostate>(value))
            w.Null();
        else if (const auto* d = std::get_if<double>(&value))
            writeNumberOrNull(w, *d);
        else if (const auto* i = std::get_if<std::int64_t>(&value))
            w.Int64(*i);
        else {
            const auto& s = std::get<std::string>(value);
            w.String(s.data(), static_cast<rapidjson::SizeType>(s.size()));
        }
    }
    w.EndObject();
}

std::vector<std::string> nameList(
    const rapidjson::Value& root, const char* key, const std::string& path, bool required)
{
    std::vector<std::string> names;
    const auto it = root.FindMember(key);
    if (it == root.MemberEnd()) {
        if (required)
            throw Error(path + ": missing \"" + key + "\"");
        return names;
    }
    if (!it->value.IsArray())
        throw Error(path + ": \"" + key + "\" must be a list of node names");
    for (const auto& v : it->value.GetArray()) {
        if (!v.IsString())
            throw Error(path + ": \"" + key + "\" must be a list of node names");
        names.emplace_back(v.GetString(), v.GetStringLength());
    }
    return names;
}

} // namespace

std::string planToJson(
    const JointGraph& graph, const PartitionResult& result, const PlanExtras& extras, bool pretty)
{
    rapidjson::StringBuffer buffer;
    if (pretty) {
        rapidjson::PrettyWriter<rapidjson::StringBuffer> writer(buffer);
        writer.SetIndent(' ', 1);
        writer.SetFormatOptions(rapidjson::kFormatSingleLineArray);
        writePlan(writer, graph, result, extras);
    } else {
        rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
        writePlan(writer, graph, result, extras);
    }
    return std::string(buffer.GetString(), buffer.GetSize()) + "\n";
}

PlanFile readPlanFile(const std::string& path)
{
    return readPlanText(readFileText(path), path);
}

PlanFile readPlanText(const std::string& text, const std::string& path)
{
    // Checked first: the DOM below parses and frees recursively, unsafe for deep nesting.
    if (const auto syntax = findJsonSyntaxError(text))
        throw Error(path + ":" + *syntax);
    rapidjson::Document doc;
    doc.Parse(text.c_str(), text.size());
    if (!doc.IsObject())
        throw Error(path + ": a plan must be a JSON object");
    PlanFile plan;
    plan.savedValues = nameList(doc, "saved_values", path, true);
    plan.savedSymNodes = nameList(doc, "saved_sym_nodes", path, false);
    plan.recomputed = nameList(doc, "recomputed", path, false);
    plan.fwNodes = nameList(doc, "fw_nodes", path, false);
    plan.bwNodes = nameList(doc, "bw_nodes", path, false);
    if (const auto it = doc.FindMember("budget"); it != doc.MemberEnd() && it->value.IsNumber())
        plan.budget = it->value.GetDouble();
    return plan;
}

std::vector<std::string> savedNames(const PlanFile& plan)
{
    std::vector<std::string> names = plan.savedValues;
    names.insert(names.end(), plan.savedSymNodes.begin(), plan.savedSymNodes.end());
    return names;
}

void checkPlanMatchesGraph(const PlanFile& plan, const JointGraph& graph, const std::string& path)
{
    for (const auto& [key, names] :
        {std::pair {"fw_nodes", &plan.fwNodes}, std::pair {"bw_nodes", &plan.bwNodes}}) {
        for (std::size_t i = 0; i < names->size(); ++i) {
            if (graph.find((*names)[i]) == kNoNode)
                throw Error(path + ": \"" + key + "\"[" + std::to_string(i) + "]: '" + (*names)[i]
                    + "' is not a node of " + graph.filePath() + ": the plan was made for another graph");
        }
    }
}

} // namespace remat
