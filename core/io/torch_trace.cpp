// SPDX-License-Identifier: MIT
#include "io/torch_trace.h"

#include "graph/error.h"
#include "graph/joint_graph_builder.h"
#include "io/printed_graph_reader.h"
#include "io/torch_trace_reference.h"
#include "io/traced_input_names.h"

#include <simdjson.h>

#include <cctype>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <set>

namespace remat::trace {
namespace {

/// The symbols' example values of a TORCH_TRACE log; a TORCH_LOGS capture logs none, and its
/// printed graphs then say that only the run's TORCH_TRACE log can size them.
const printed::SymbolHints* hintsOf(const TraceLogFile& log, const TracedCompile& compile)
{
    return log.format == kTorchTraceLog ? &compile.symbolHints : nullptr;
}

/// With several logs in a folder, ids carry the log's name: "rank_0_ab12:0/0".
std::string qualifier(const TraceLogFile& log, std::size_t logCount)
{
    if (logCount < 2)
        return {};
    std::string name = std::filesystem::path(log.path).filename().string();
    if (name.starts_with(kTraceLogPrefix))
        name.erase(0, kTraceLogPrefix.size());
    if (name.ends_with(".log"))
        name.resize(name.size() - 4);
    return name + ":";
}

struct Found {
    const TraceLogFile* log = nullptr;
    const TracedCompile* compile = nullptr;
};

std::string knownIds(const std::vector<TraceLogFile>& logs, bool jointOnly)
{
    std::string known;
    for (const auto& log : logs) {
        for (const auto& c : log.compiles) {
            if (!jointOnly || c.joint)
                known += (known.empty() ? "" : ", ") + qualifier(log, logs.size()) + c.id;
        }
    }
    return known.empty() ? "none" : known;
}

/// An exact id, or one without its attempt suffix ("0/0" for "0/0_1") when only one attempt matches.
Found findCompile(const std::vector<TraceLogFile>& logs, const std::string& path, const std::string& id)
{
    std::vector<Found> loose;
    for (const auto& log : logs) {
        const std::string prefix = qualifier(log, logs.size());
        for (const auto& c : log.compiles) {
            const std::string full = prefix + c.id;
            if (full == id)
                return {&log, &c};
            if (full.starts_with(id + "_") && id.find('_', prefix.size()) == std::string::npos)
                loose.push_back({&log, &c});
        }
    }
    if (loose.size() == 1)
        return loose.front();
    throw Error(path + ": no compiled graph " + id + " (the log has: " + knownIds(logs, false) + ")");
}

/// 2.14 writes torch._functorch.config as JSON; the budget is what selected the decision's key.
std::optional<double> memoryBudget(const TracedCompile& compile, const std::string& file)
{
    if (!compile.functorchConfig)
        return std::nullopt;
    const std::string text = payloadText(*compile.functorchConfig);
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    if (const auto error = parser.parse(text).get(root))
        throw Error(file + ":" + std::to_string(compile.functorchConfig->line)
            + ": torch._functorch.config is not valid JSON (" + simdjson::error_message(error) + ")");
    double budget = 0;
    if (root["activation_memory_budget"].get(budget))
        return std::nullopt;
    return budget;
}

/// fw_metadata's static_input_indices (parameters and buffers, which 2.14's min cut saves for free
/// under treat_parameters_as_free_to_save), from the dataclass repr 2.14 logs: "static_input_indices=[0, 1]",
/// wrapped one index a line when the repr is long.
std::vector<int> staticInputIndices(const TracedCompile& compile, const std::string& file)
{
    if (!compile.forwardMetadata)
        return {};
    const std::string text = payloadText(*compile.forwardMetadata);
    constexpr std::string_view key = "static_input_indices=[";
    const auto begin = text.find(key);
    const auto end = text.find(']', begin);
    const std::string where
        = file + ":" + std::to_string(compile.forwardMetadata->line) + ": aot_forward_graph_fw_metadata";
    if (begin == std::string::npos || end == std::string::npos)
        throw Error(where + " has no static_input_indices=[...]");
    std::vector<int> indices;
    const char* p = text.data() + begin + key.size();
    const char* last = text.data() + end;
    while (p < last) {
        // Any whitespace: a long list is pretty-printed one index a line ("[0,\n\t      1,").
        while (p < last && (*p == ',' || std::isspace(static_cast<unsigned char>(*p))))
            ++p;
        if (p == last)
            break;
        int value = 0;
        const auto [next, error] = std::from_chars(p, last, value);
        if (error != std::errc {} || value < 0)
            throw Error(where + ": static_input_indices holds something other than indices");
        indices.push_back(value);
        p = next;
    }
    return indices;
}

std::string budgetKey(double budget)
{
    char text[32];
    std::snprintf(text, sizeof text, "%g", budget);
    return std::string("memory_budget_") + text;
}

/// Says which example values sized a dynamic-shape graph; empty for a static one.
std::string symbolValuesNote(const JointGraph& joint, const printed::SymbolHints& hints)
{
    std::set<std::string> used;
    for (const Node& node : joint.nodes())
        used.insert(node.symbolic->freeSymbols.begin(), node.symbolic->freeSymbols.end());
    std::string values;
    for (const std::string& symbol : used) {
        if (const auto it = hints.find(symbol); it != hints.end())
            values += (values.empty() ? "" : ", ") + symbol + " = " + std::to_string(it->second);
    }
    if (values.empty())
        return {};
    return "; dynamic shapes, sized as PyTorch's partitioner sizes them: with the example values " + values
        + " (create_symbol records)";
}

} // namespace

TraceListing listTorchTrace(const std::string& path)
{
    return listTraceLogs(readTracePath(path), path);
}

TraceListing listTraceLogs(const std::vector<TraceLogFile>& logs, const std::string& path)
{
    TraceListing listing;
    listing.path = path;
    if (!logs.empty())
        listing.format = logs.front().format;
    for (const auto& log : logs) {
        if (listing.torchVersion.empty())
            listing.torchVersion = log.torchVersion;
        for (const auto& c : log.compiles) {
            TracedGraphSummary g;
            g.id = qualifier(log, logs.size()) + c.id;
            g.file = log.path;
            g.joint = c.joint.has_value();
            g.partitioned = c.forward && c.backward;
            g.minCutInformation = c.minCutInformation.has_value();
            g.afterInductorPasses = !c.jointGraphPasses.empty();
            g.inference = c.inference && !c.joint;
            const auto& shown = c.joint ? c.joint
                : c.inference           ? c.inference
                : c.forward             ? c.forward
                                        : c.backward;
            try {
                g.nodes = static_cast<int>(
                    readPrintedGraph(payloadGraph(*shown, "aot graph"), log.path, hintsOf(log, c)).size());
            } catch (const Error& e) {
                g.problem = e.what();
            }
            listing.graphs.push_back(std::move(g));
        }
    }
    return listing;
}

std::string defaultTracedGraph(const TraceListing& listing, const std::string& option)
{
    std::vector<const TracedGraphSummary*> joints;
    for (const auto& g : listing.graphs) {
        if (g.joint)
            joints.push_back(&g);
    }
    if (joints.size() == 1)
        return joints.front()->id;
    if (joints.empty())
        throw Error(listing.path
            + ": the log holds no joint graph (compile with a backward, e.g. "
              "torch.compile(backend=\"aot_eager\") and call .backward())");
    std::string ids;
    for (const auto* g : joints)
        ids += (ids.empty() ? "" : ", ") + g->id;
    throw Error(listing.path + ": the log holds " + std::to_string(joints.size()) + " joint graphs (" + ids
        + "): choose one with " + option);
}

JointGraph loadTracedGraph(const std::string& path, const std::string& id)
{
    return loadTracedGraph(readTracePath(path), path, id);
}

JointGraph loadTracedGraph(
    const std::vector<TraceLogFile>& logs, const std::string& path, const std::string& id)
{
    const Found found = findCompile(logs, path, id);
    const TracedCompile& compile = *found.compile;
    const std::string& file = found.log->path;
    const std::string fullId = qualifier(*found.log, logs.size()) + compile.id;
    if (!compile.joint)
        throw Error(file + ": compile " + fullId + " has no aot_joint_graph record"
            + (compile.inference ? " (it was compiled for inference, without a backward)" : "")
            + "; graphs with one: " + knownIds(logs, true));
    JointGraph joint = readPrintedGraph(
        payloadGraph(*compile.joint, "aot_joint_graph"), file, hintsOf(*found.log, compile));
    if (joint.kind() != GraphKind::Joint)
        throw Error(file + ":" + std::to_string(compile.joint->line) + ": compile " + fullId
            + ": the aot_joint_graph record holds no tangents_* input, so it is not a joint graph");

    const bool capture = found.log->format != kTorchTraceLog;
    std::map<std::string, RecordedPartition> recorded;
    std::string unmatched;
    if (compile.forward && compile.backward)
        try {
            RecordedPartition decision = recordedDecision(joint, compile, file);
            decision.graphPassesBefore = compile.jointGraphPasses;
            if (capture)
                decision.provenanceCaveat
                    = "A TORCH_LOGS capture does not say which backend compiled the graph, nor whether an "
                      "activation memory budget was set: under Inductor (torch.compile's default) its "
                      "joint-graph passes rewrite the graph before partitioning, and a budget changes the "
                      "decision. A TORCH_TRACE log records both; backend=\"aot_eager\" compares like "
                      "with like";
            const auto budget = memoryBudget(compile, file);
            // Inductor partitions with min-cut, and so does a budget; another backend may not.
            decision.partitionerNamed = !compile.jointGraphPasses.empty() || (budget && *budget < 1.0);
            decision.backendNamed = !capture;
            if (budget && *budget < 1.0) {
                decision.memoryBudget = budget;
                recorded.emplace(budgetKey(*budget), std::move(decision));
            } else {
                recorded.emplace("min_cut", std::move(decision));
            }
        } catch (const DecisionMismatch& e) {
            // The joint graph is whole: open it, and say why PyTorch's decision is not compared.
            unmatched = std::string(e.what())
                + (capture
                        ? " (under Inductor, its joint-graph passes rewrite the graph before partitioning; "
                          "a TORCH_LOGS capture does not say which backend ran)"
                        : compile.jointGraphPasses.empty()
                        ? " (2.14 logs aot_joint_graph before tensorify_python_scalars turns SymFloat "
                          "arithmetic"
                          " into tensor ops)"
                        : " (Inductor's joint-graph passes rewrote it before partitioning)")
                + ", so PyTorch's decision is of a graph the log does not hold";
        }
    GraphSource source;
    source.producer = found.log->format
        + (found.log->torchVersion.empty() ? std::string() : " of PyTorch " + found.log->torchVersion);
    source.model = "compile " + fullId;
    const std::string records
        = capture ? "Forward graph and Backward graph" : "aot_forward_graph and aot_backward_graph";
    std::string decisionText = "; PyTorch's decision from the " + records + " records";
    if (!unmatched.empty())
        decisionText = "; PyTorch's decision not compared: its " + records + " records do not fit this graph";
    else if (recorded.empty() && capture)
        decisionText
            = "; no Forward and Backward graphs with their fw_metadata (TORCH_LOGS=aot_graphs), so no "
              "recorded decision";
    else if (recorded.empty())
        decisionText = "; no forward and backward graphs, so no recorded decision";
    source.description = (capture ? "Joint graph at line " : "aot_joint_graph at line ")
        + std::to_string(compile.joint->line) + decisionText + symbolValuesNote(joint, compile.symbolHints);
    source.unmatchedDecision = std::move(unmatched);
    source.partitionedInsideCompile = true; // TORCH_TRACE and TORCH_LOGS log what torch.compile traced
    // The log names no version before its first compilation_metrics; 2.x logs are the only TORCH_TRACE.
    const std::string version = found.log->torchVersion.empty() ? "2.x" : found.log->torchVersion;
    return JointGraphBuilder::withInputNames(
        JointGraphBuilder::withProvenance(std::move(joint), std::move(source), std::move(recorded), version,
            staticInputIndices(compile, file)),
        tracedInputNames(compile));
}

std::optional<MinCutInformation> tracedMinCutInformation(const std::string& path, const std::string& id)
{
    const std::vector<TraceLogFile> logs = readTracePath(path);
    const Found found = findCompile(logs, path, id);
    const auto& artifact = found.compile->minCutInformation;
    if (!artifact)
        return std::nullopt;
    const std::string text = payloadText(*artifact);
    const std::string where
        = found.log->path + ":" + std::to_string(artifact->line) + ": min_cut_information";
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    if (const auto error = parser.parse(text).get(root))
        throw Error(where + " is not valid JSON (" + simdjson::error_message(error) + ")");
    MinCutInformation info;
    simdjson::dom::array names;
    if (root["Min Cut Solution Saved Values"].get(names) || root["Memory Budget"].get(info.memoryBudget))
        throw Error(where + " lacks \"Min Cut Solution Saved Values\" or \"Memory Budget\"");
    for (const auto name : names) {
        std::string_view saved;
        if (name.get(saved))
            throw Error(where + ": \"Min Cut Solution Saved Values\" holds a non-string");
        info.savedValues.emplace_back(saved);
    }
    return info;
}

} // namespace remat::trace
