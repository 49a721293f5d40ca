// SPDX-License-Identifier: MIT
#pragma once

// The printed-graph reader's internals, shared by printed_graph_reader.cpp (statements, inputs,
// return) and printed_nodes.cpp (one assignment to one node, and the finished graph).

#include "graph/error.h"
#include "graph/joint_graph_builder.h"
#include "io/printed_annotation.h"
#include "io/printed_args.h"
#include "io/printed_expr.h"
#include "io/printed_source.h"

#include <optional>
#include <string>
#include <vector>

namespace remat::printed {

/// An Error whose message already starts with "<file>:<line>: ".
class LocatedError : public Error {
public:
    using Error::Error;
};

/// A placeholder-to-be: a parameter of `def forward` or a name of the tree_flatten_spec line.
struct Input {
    std::string name;
    std::optional<AnnotatedValue> value;
    int line = 0;
};

/// `target [: annotation] [= target2 = ...] = value`, as parsed; `value` is empty for an
/// annotation alone (`primals_1: "f32[8]"`).
struct Assignment {
    std::vector<Expr> targets;
    std::optional<Expr> annotation;
    std::optional<Expr> value;
};

/// Reads the statements of one located graph into a JointGraph, in order: the class line, the
/// def (its parameters are the inputs unless a tree_flatten_spec line names them), one node per
/// assignment, comments as meta of the nodes below them, and the return statement as the output.
class PrintedGraphReader {
public:
    PrintedGraphReader(const GraphText& graph, const std::string& fileName, const SymbolHints* hints)
        : m_graph(graph)
        , m_file(fileName)
        , m_hints(hints)
        , m_statements(graph.lines, fileName)
    { }

    JointGraph read();

private:
    [[noreturn]] void fail(int line, const std::string& what) const
    {
        throw LocatedError(m_file + ":" + std::to_string(line) + ": " + what);
    }

    std::optional<Statement> nextCode(int minIndent);
    void readDef(const Statement& s);
    void readStatement(const Statement& s);
    Assignment parseAssignment(ExprParser& p) const;
    void readPart(std::string_view code, std::vector<Token> tokens, int line);
    void annotationOnly(const Expr& target, const Expr& annotation, int line);
    void flattenedInputs(const Expr& targets, const Expr& value, int line);
    void finishInputs(int line);
    void defineNode(const std::string& name, const std::optional<Expr>& annotation, const Expr& value,
        std::string_view code, int line);
    void describe(const Expr& value, Node& node, ArgWriter& writer);
    void callArgs(const Expr& call, std::size_t firstArg, const Expr* self, Node& node, ArgWriter& writer);
    void readReturn(const Expr* value, std::string_view code, int line);
    bool applyAnnotation(const Expr& annotation, Node& node) const;
    static void applyValue(AnnotatedValue value, Node& node);
    void fillTupleValues();
    NodeId addNode(Node node, int line, bool annotated);
    OpId internOp(std::string_view target);
    ArgWriter writer(std::string_view code);
    std::string unknownName(std::string_view name) const;
    /// For a graph TORCH_LOGS=aot_graphs printed after partitioning: where the joint graph is.
    std::string partitionedGraphHint() const;
    JointGraph finish();

    const GraphText& m_graph;
    const std::string& m_file;
    const SymbolHints* m_hints;
    StatementReader m_statements;
    JointGraphBuilder m_builder;
    std::vector<Node> m_nodes;
    std::vector<int> m_lines;
    std::vector<char> m_annotated;
    StringMap<NodeId> m_names;
    std::string m_className;
    std::vector<Input> m_params;
    std::optional<std::vector<Input>> m_flattened;
    std::vector<std::pair<std::string, std::pair<AnnotatedValue, int>>> m_pendingAnnotations;
    bool m_inputsDone = false;
    int m_defLine = 0;
    int m_currentLine = 0;
    int m_returnLine = 0;
    std::size_t m_outputCount = 0;
    NodeMeta m_meta;
    std::optional<OpId> m_getitem;
};

} // namespace remat::printed
