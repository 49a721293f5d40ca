// SPDX-License-Identifier: MIT
#include "explain/graph_provenance.h"

#include "analysis/recording_rules.h"
#include "analysis/rule_set.h"
#include "graph/joint_graph.h"

namespace remat {
namespace {

std::string count(int n, const std::string& what)
{
    return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
}

std::string shape(const JointGraph& graph)
{
    int primals = 0;
    int tangents = 0;
    for (const Node& node : graph.nodes()) {
        if (node.op != NodeOp::Placeholder)
            continue;
        ++(node.name.starts_with("tangents_") ? tangents : primals);
    }
    std::string text = graph.kind() == GraphKind::Joint ? "joint graph" : "forward graph";
    text += ", " + count(static_cast<int>(graph.size()), "node") + " (" + count(primals, "input");
    if (graph.kind() == GraphKind::Joint)
        text += ", " + count(tangents, "tangent") + ", " + count(graph.numFwdOutputs(), "forward output");
    return text + ")";
}

std::string whyTheseRules(const JointGraph& graph, RuleSet rules)
{
    std::string text(ruleSetName(rules));
    if (!graph.recordedTorchVersion().empty())
        return text + " (the file was made by PyTorch " + graph.recordedTorchVersion() + ")";
    if (graph.source().producer.starts_with("torch "))
        return text + " (the producer is " + graph.source().producer + ")";
    return text + " (nothing in the file names a PyTorch version; Rules picks others)";
}

std::string staticInputs(const JointGraph& graph)
{
    if (graph.staticLifetimeInputIndices().empty())
        return "none";
    std::vector<std::string> primals;
    for (const Node& node : graph.nodes()) {
        if (node.op == NodeOp::Placeholder && !node.name.starts_with("tangents_"))
            primals.push_back(node.name);
    }
    std::string text;
    for (int index : graph.staticLifetimeInputIndices()) {
        const auto i = static_cast<std::size_t>(index);
        text += (text.empty() ? "" : ", ") + (i < primals.size() ? primals[i] : "#" + std::to_string(index));
    }
    return text + " (torch 2.14's min-cut saves them for free)";
}

std::string recordedDecisions(const JointGraph& graph)
{
    if (graph.recorded().empty())
        return "none";
    std::string text;
    for (const auto& [key, recorded] : graph.recorded())
        text += (text.empty() ? "" : "; ") + key + ": " + std::to_string(recorded.savedValues.size())
            + " saved";
    return text;
}

} // namespace

std::vector<ProvenanceRow> describeProvenance(const JointGraph& graph)
{
    const GraphSource& source = graph.source();
    std::vector<ProvenanceRow> rows {{"File", graph.filePath()}, {"Graph", shape(graph)}};
    if (!source.model.empty())
        rows.push_back({"Model", source.model});
    if (!source.producer.empty())
        rows.push_back({"Producer", source.producer});
    if (!source.description.empty())
        rows.push_back({"Description", source.description});
    const RuleSet rules = rulesOfRecording(graph);
    rows.push_back({"Opens under", whyTheseRules(graph, rules)});
    if (!graph.sizesKnown())
        rows.push_back({"Node sizes", "unknown: the graph can be shown, not partitioned"});
    if (rules != RuleSet::Torch113 && graph.kind() == GraphKind::Joint) {
        rows.push_back({"Static inputs", staticInputs(graph)});
        rows.push_back({"Inside torch.compile",
            source.partitionedInsideCompile
                ? "yes: dead random ops are dropped, as torch.compile's DCE does"
                : "not that the file says: dead random ops stay, as outside torch.compile"});
    }
    rows.push_back({"PyTorch's decisions", recordedDecisions(graph)});
    return rows;
}

} // namespace remat
