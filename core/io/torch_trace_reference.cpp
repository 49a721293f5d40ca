// SPDX-License-Identifier: MIT
#include "io/torch_trace_reference.h"

#include "graph/error.h"
#include "io/printed_expr.h"
#include "io/printed_graph_reader.h"

#include <algorithm>

namespace remat::trace {
namespace {

struct Parameter {
    std::string name;
    std::string annotation;
};

/// The parameters of the payload's `def forward(self, ...)`: 2.14 prints a partitioned backward
/// graph's inputs there, one per line with a `# PlainAOTInput(...)` comment (which the statement
/// reader drops), older versions on one line.
std::vector<Parameter> forwardParameters(const printed::GraphText& graph, const std::string& file)
{
    printed::StatementReader statements(graph.lines, file);
    while (auto s = statements.next(0)) {
        const auto code = printed::trimSpaces(s->code);
        if (!code.starts_with("def "))
            continue;
        std::vector<Parameter> params;
        try {
            printed::ExprParser p(s->code, printed::tokenize(s->code));
            p.expectName();
            p.expectName();
            p.expect("(");
            while (!p.accept(")")) {
                Parameter param {std::string(p.expectName()), {}};
                if (p.accept(":")) {
                    const printed::Expr annotation = p.parseExpression();
                    param.annotation = annotation.kind == printed::ExprKind::String ? annotation.text : "";
                }
                if (param.name != "self")
                    params.push_back(std::move(param));
                if (!p.accept(",")) {
                    p.expect(")");
                    break;
                }
            }
        } catch (const Error& e) {
            throw Error(file + ":" + std::to_string(s->line)
                + ": cannot read the backward graph's inputs: " + e.what());
        }
        return params;
    }
    throw Error(file + ":" + std::to_string(graph.lines.empty() ? 0 : graph.lines.front().number)
        + ": the backward graph has no 'def forward(' line");
}

/// 2.14's _is_tangent and _is_bwd_seed_offset test the placeholder's name; graph-safe RNG
/// functionalization (CUDA) adds a generator input per recomputed random op, bwd_rng_state_<k>.
bool isSavedInput(const std::string& name)
{
    return name.find("tangents") == std::string::npos && name.find("bwd_seed") == std::string::npos
        && name.find("bwd_base_offset") == std::string::npos && !name.starts_with("bwd_rng_state_");
}

} // namespace

printed::GraphText payloadGraph(const TraceArtifact& artifact, const std::string& title)
{
    printed::GraphText graph;
    graph.lines = artifact.payload;
    graph.origin = "TORCH_TRACE";
    graph.title = title;
    graph.graphsInFile = 1;
    return graph;
}

RecordedPartition recordedDecision(
    const JointGraph& joint, const TracedCompile& compile, const std::string& file)
{
    const TraceArtifact& forwardRecord = *compile.forward;
    const TraceArtifact& backwardRecord = *compile.backward;
    const JointGraph forward
        = readPrintedGraph(payloadGraph(forwardRecord, "aot_forward_graph"), file, &compile.symbolHints);
    std::vector<std::string> forwardOutputs;
    for (NodeId n : forward.outputs())
        forwardOutputs.push_back(n == kNoNode ? std::string() : forward.node(n).name);

    RecordedPartition decision;
    std::vector<NodeId> saved;
    const int backwardLine = backwardRecord.line;
    for (const Parameter& input :
        forwardParameters(payloadGraph(backwardRecord, "aot_backward_graph"), file)) {
        if (!isSavedInput(input.name))
            continue;
        // functionalize_rng_ops saves the RNG state of each random op the backward recomputes.
        if (input.name.starts_with("rng_state_output_") && joint.find(input.name) == kNoNode) {
            ++decision.savedRngStates;
            continue;
        }
        const std::string where = file + ":" + std::to_string(backwardLine) + ": compile " + compile.id
            + ": the backward graph's input '" + input.name + "'";
        if (std::find(forwardOutputs.begin(), forwardOutputs.end(), input.name) == forwardOutputs.end())
            throw DecisionMismatch(where + " is not an output of the forward graph (line "
                + std::to_string(forwardRecord.line) + "), so it cannot be matched to a saved value");
        const NodeId inJoint = joint.find(input.name);
        if (inJoint == kNoNode)
            throw DecisionMismatch(
                where + " is not a node of the joint graph: PyTorch renamed or created it after tracing");
        const NodeId inForward = forward.find(input.name);
        if (forward.opOf(inForward).target != joint.opOf(inJoint).target)
            throw DecisionMismatch(where + " is " + forward.opOf(inForward).target
                + " in the forward graph but " + joint.opOf(inJoint).target
                + " in the joint graph: the names do not match the same node");
        if (input.annotation.starts_with("Sym("))
            decision.savedSymNodes.push_back(input.name);
        else
            saved.push_back(inJoint);
    }
    std::sort(saved.begin(), saved.end());
    for (NodeId n : saved)
        decision.savedValues.push_back(joint.node(n).name);
    for (const Node& node : forward.nodes()) {
        if (node.op != NodeOp::Placeholder && node.op != NodeOp::Output)
            decision.fwNodes.push_back(node.name);
    }
    return decision;
}

} // namespace remat::trace
