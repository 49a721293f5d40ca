// SPDX-License-Identifier: MIT
#include "io/printed_graph_reader.h"

#include "graph/error.h"
#include "graph/joint_graph_builder.h"
#include "io/file_text.h"
#include "io/printed_annotation.h"
#include "io/printed_args.h"
#include "io/printed_expr.h"
#include "io/printed_meta.h"
#include "io/printed_source.h"

#include <filesystem>

namespace remat {
namespace {

using namespace printed;

/// An Error whose message already starts with "<file>:<line>: ".
class LocatedError : public Error {
public:
    using Error::Error;
};

struct Input {
    std::string name;
    std::optional<AnnotatedValue> value;
    int line = 0;
};

struct Assignment {
    std::vector<Expr> targets;
    std::optional<Expr> annotation;
    std::optional<Expr> value;
};

std::string_view trim(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\n'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\n'))
        s.remove_suffix(1);
    return s;
}

/// `a, b, c,` without brackets, as on the left of FX's tree_flatten_spec line.
Expr bareTuple(ExprParser& p)
{
    Expr first = p.parseExpression();
    if (p.peek().kind != TokenKind::Op || p.peek().text != ",")
        return first;
    Expr tuple;
    tuple.kind = ExprKind::Tuple;
    tuple.begin = first.begin;
    tuple.items.push_back(std::move(first));
    while (p.accept(",")) {
        if (p.atEnd() || (p.peek().kind == TokenKind::Op && p.peek().text == "="))
            break;
        tuple.items.push_back(p.parseExpression());
    }
    tuple.end = tuple.items.back().end;
    return tuple;
}

/// Splits a statement's tokens at the top-level ';' ("mm = ...;  t = None").
std::vector<std::vector<Token>> splitAtSemicolons(const std::vector<Token>& tokens)
{
    std::vector<std::vector<Token>> parts(1);
    int depth = 0;
    for (const Token& t : tokens) {
        if (t.kind == TokenKind::Op) {
            if (t.text == "(" || t.text == "[" || t.text == "{")
                ++depth;
            else if (t.text == ")" || t.text == "]" || t.text == "}")
                --depth;
            else if (t.text == ";" && depth == 0) {
                parts.back().push_back(Token {TokenKind::End, {}, t.offset});
                parts.emplace_back();
                continue;
            }
        }
        parts.back().push_back(t);
    }
    return parts;
}

bool isName(const Expr& e, std::string_view name)
{
    return e.kind == ExprKind::Name && e.text == name;
}

class PrintedGraphReader {
public:
    PrintedGraphReader(const GraphText& graph, const std::string& fileName)
        : m_graph(graph)
        , m_file(fileName)
        , m_statements(graph.lines, fileName)
    {
    }

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
    void fillTupleValues();
    NodeId addNode(Node node, int line, bool annotated);
    ArgWriter writer(std::string_view code);
    std::string unknownName(std::string_view name) const;
    JointGraph finish();

    const GraphText& m_graph;
    const std::string& m_file;
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
};

std::optional<Statement> PrintedGraphReader::nextCode(int minIndent)
{
    while (auto s = m_statements.next(minIndent)) {
        if (!s->code.empty())
            return s;
    }
    return std::nullopt;
}

JointGraph PrintedGraphReader::read()
{
    auto s = nextCode(0);
    if (s && trim(s->code).starts_with("class ")) {
        const auto code = trim(s->code);
        m_className = std::string(code.substr(6, code.find('(') - 6));
        s = nextCode(0);
    }
    if (!s || !trim(s->code).starts_with("def ")) {
        const int line = s ? s->line : m_graph.lines.front().number;
        fail(line, "expected 'def forward(...):' after the class line");
    }
    readDef(*s);
    const int bodyIndent = s->indent + 1;
    while (auto statement = m_statements.next(bodyIndent)) {
        m_currentLine = statement->line;
        if (statement->code.empty()) {
            try {
                m_meta = parseSummaryComment(statement->comment);
            } catch (const Error& e) {
                fail(statement->line, e.what());
            }
            continue;
        }
        if (m_returnLine)
            fail(statement->line, trim(statement->code).starts_with("return")
                     ? "a second return statement (the first is on line " + std::to_string(m_returnLine) + ")"
                     : "a statement after the return statement on line " + std::to_string(m_returnLine));
        readStatement(*statement);
    }
    if (!m_returnLine)
        fail(std::max(m_statements.lastLine(), m_defLine), "the function ends without a return statement");
    return finish();
}

void PrintedGraphReader::readDef(const Statement& s)
{
    m_defLine = s.line;
    try {
        ExprParser p(s.code, tokenize(s.code));
        if (p.expectName() != "def")
            p.unexpected();
        p.expectName();
        p.expect("(");
        bool first = true;
        while (!p.accept(")")) {
            if (!p.accept("*"))
                p.accept("**");
            Input input;
            input.name = std::string(p.expectName());
            input.line = s.line;
            if (p.accept(":")) {
                const Expr annotation = p.parseExpression();
                if (annotation.kind == ExprKind::String)
                    input.value = parseAnnotation(annotation.text);
            }
            if (p.accept("="))
                p.parseExpression(); // a default value: FX keeps it in the placeholder's args; we do not
            if (!(first && input.name == "self"))
                m_params.push_back(std::move(input));
            first = false;
            if (!p.accept(",")) {
                p.expect(")");
                break;
            }
        }
        if (p.accept("->"))
            p.parseExpression();
        p.expect(":");
        if (!p.atEnd())
            p.unexpected();
    } catch (const Error& e) {
        fail(s.line, "cannot read the function definition: " + std::string(e.what()));
    }
}

void PrintedGraphReader::readStatement(const Statement& s)
{
    std::vector<Token> tokens;
    try {
        tokens = tokenize(s.code);
    } catch (const Error& e) {
        fail(s.line, "cannot read '" + excerpt(s.code) + "': " + e.what());
    }
    for (auto& part : splitAtSemicolons(tokens)) {
        if (part.size() > 1)
            readPart(s.code, std::move(part), s.line);
    }
}

Assignment PrintedGraphReader::parseAssignment(ExprParser& p) const
{
    Assignment a;
    Expr first = bareTuple(p);
    if (first.kind == ExprKind::Name && p.accept(":")) {
        a.annotation = p.parseExpression();
        a.targets.push_back(std::move(first));
        if (p.atEnd())
            return a;
        p.expect("=");
    } else {
        a.targets.push_back(std::move(first));
        if (p.atEnd())
            throw Error("an expression that is not assigned to a name");
        p.expect("=");
    }
    a.value = bareTuple(p);
    while (p.accept("=")) {
        a.targets.push_back(std::move(*a.value));
        a.value = bareTuple(p);
    }
    if (!p.atEnd())
        p.unexpected();
    return a;
}

void PrintedGraphReader::readPart(std::string_view code, std::vector<Token> tokens, int line)
{
    const auto statementText = [&] {
        const auto begin = tokens.front().offset;
        return excerpt(code.substr(begin, tokens.back().offset - begin));
    };
    ExprParser p(code, tokens);
    if (p.peek().kind == TokenKind::Name && (p.peek().text == "pass" || p.peek().text == "return")) {
        const bool isReturn = p.expectName() == "return";
        std::optional<Expr> value;
        try {
            if (!p.atEnd())
                value = bareTuple(p);
            if (!p.atEnd())
                p.unexpected();
        } catch (const Error& e) {
            fail(line, "cannot read '" + statementText() + "': " + e.what());
        }
        if (isReturn)
            readReturn(value ? &*value : nullptr, code, line);
        else if (value)
            fail(line, "cannot read '" + statementText() + "'");
        return;
    }
    Assignment a;
    try {
        a = parseAssignment(p);
    } catch (const Error& e) {
        fail(line, "cannot read '" + statementText() + "': " + e.what());
    }
    if (!a.value) {
        annotationOnly(a.targets.front(), *a.annotation, line);
        return;
    }
    if (isName(*a.value, "None")) { // "t = None" and "a = b = None": FX freeing values early
        for (const Expr& target : a.targets) {
            if (target.kind != ExprKind::Name)
                fail(line, "cannot read '" + statementText() + "'");
            if (!m_names.contains(target.text))
                fail(line, "'" + target.text + "' is set to None but is not a node");
        }
        return;
    }
    if (a.targets.size() > 1)
        fail(line, "cannot read '" + statementText() + "': FX does not print chained assignments");
    const Expr& target = a.targets.front();
    if (target.kind == ExprKind::Tuple) {
        flattenedInputs(target, *a.value, line);
        return;
    }
    if (target.kind != ExprKind::Name)
        fail(line, "cannot read '" + statementText() + "': the left-hand side is not a name");
    defineNode(target.text, a.annotation, *a.value, code, line);
}

void PrintedGraphReader::annotationOnly(const Expr& target, const Expr& annotation, int line)
{
    // torch 2.x pytree graphs: `primals_1: "f32[8, 16]"; primals_2: "f32[16]"; ` before the inputs line.
    if (target.kind != ExprKind::Name)
        fail(line, "an annotation without a value must name an input");
    if (m_inputsDone)
        fail(line, "an annotation of '" + target.text + "' without a value after the inputs were read");
    if (annotation.kind != ExprKind::String)
        return;
    try {
        m_pendingAnnotations.emplace_back(target.text, std::make_pair(parseAnnotation(annotation.text), line));
    } catch (const Error& e) {
        fail(line, "input '" + target.text + "': " + e.what());
    }
}

void PrintedGraphReader::flattenedInputs(const Expr& targets, const Expr& value, int line)
{
    std::optional<std::string> callee;
    if (value.kind == ExprKind::Call)
        callee = dottedPath(value.items[0]);
    if (!callee || !callee->ends_with("tree_flatten_spec"))
        fail(line, "cannot read this assignment to several names: only fx_pytree.tree_flatten_spec(...) assigns"
                   " several names");
    if (m_inputsDone)
        fail(line, "a second list of inputs");
    m_flattened.emplace();
    for (const Expr& name : targets.items) {
        if (name.kind != ExprKind::Name)
            fail(line, "the inputs of fx_pytree.tree_flatten_spec must be names");
        m_flattened->push_back({name.text, std::nullopt, line});
    }
    finishInputs(line);
}

void PrintedGraphReader::finishInputs(int line)
{
    if (m_inputsDone)
        return;
    m_inputsDone = true;
    for (Input& input : m_flattened ? *m_flattened : m_params) {
        Node node;
        node.name = input.name;
        node.op = NodeOp::Placeholder;
        node.target = m_builder.internOp(input.name);
        node.kwargs = 1;
        std::optional<AnnotatedValue> value = std::move(input.value);
        for (auto it = m_pendingAnnotations.begin(); it != m_pendingAnnotations.end(); ++it) {
            if (it->first == input.name) {
                value = std::move(it->second.first);
                m_pendingAnnotations.erase(it);
                break;
            }
        }
        if (value && value->kind == AnnotatedValue::Kind::Tensor) {
            node.valueKind = ValueKind::Tensor;
            node.values = std::move(value->values);
        } else if (value && value->kind == AnnotatedValue::Kind::Tuple) {
            node.valueKind = ValueKind::TensorList;
            node.values = std::move(value->values);
        }
        addNode(std::move(node), input.line ? input.line : line, value.has_value());
    }
    if (!m_pendingAnnotations.empty())
        fail(m_pendingAnnotations.front().second.second,
             "an annotation of '" + m_pendingAnnotations.front().first + "', which is not an input");
}

NodeId PrintedGraphReader::addNode(Node node, int line, bool annotated)
{
    const auto id = static_cast<NodeId>(m_nodes.size());
    const auto [it, added] = m_names.emplace(node.name, id);
    if (!added)
        fail(line, "a second node named '" + node.name + "' (the first is on line "
                       + std::to_string(m_lines[static_cast<std::size_t>(it->second)]) + ")");
    m_nodes.push_back(std::move(node));
    m_lines.push_back(line);
    m_annotated.push_back(annotated ? 1 : 0);
    return id;
}

ArgWriter PrintedGraphReader::writer(std::string_view code)
{
    return ArgWriter(
        m_builder, code,
        [this](std::string_view name) {
            const auto it = m_names.find(name);
            return it == m_names.end() ? kNoNode : it->second;
        },
        [this](std::string_view name) { return unknownName(name); });
}

std::string PrintedGraphReader::unknownName(std::string_view name) const
{
    for (const SourceLine& line : m_graph.lines) {
        if (line.number <= m_currentLine)
            continue;
        const auto text = trim(line.text);
        if (text.starts_with(name) && text.size() > name.size()
            && (text[name.size()] == ':' || text.substr(name.size()).starts_with(" =")))
            return "'" + std::string(name) + "' is used before it is defined (on line " + std::to_string(line.number)
                + "); nodes must be in topological order";
    }
    return "'" + std::string(name) + "' is not defined";
}

void PrintedGraphReader::defineNode(const std::string& name, const std::optional<Expr>& annotation,
                                    const Expr& value, std::string_view code, int line)
{
    finishInputs(line);
    // `x_1 = x`: FX renames a placeholder whose node name differs from its parameter name.
    if (value.kind == ExprKind::Name && !m_names.contains(name)) {
        const auto it = m_names.find(value.text);
        if (it != m_names.end() && m_nodes[static_cast<std::size_t>(it->second)].op == NodeOp::Placeholder
            && m_nodes[static_cast<std::size_t>(it->second)].name == value.text) {
            const NodeId id = it->second;
            m_names.erase(it);
            m_names.emplace(name, id);
            m_nodes[static_cast<std::size_t>(id)].name = name;
            return;
        }
    }
    if (const auto it = m_names.find(name); it != m_names.end())
        fail(line, "a second node named '" + name + "' (the first is on line "
                       + std::to_string(m_lines[static_cast<std::size_t>(it->second)]) + ")");
    Node node;
    node.name = name;
    bool annotated = false;
    try {
        ArgWriter w = writer(code);
        describe(value, node, w);
        if (annotation)
            annotated = applyAnnotation(*annotation, node);
    } catch (const LocatedError&) {
        throw;
    } catch (const Error& e) {
        fail(line, "node '" + name + "': " + e.what());
    }
    node.meta = m_meta;
    addNode(std::move(node), line, annotated);
}

void PrintedGraphReader::callArgs(const Expr& call, std::size_t firstArg, const Expr* self, Node& node,
                                  ArgWriter& writer)
{
    std::vector<const Expr*> positional;
    std::vector<const std::string*> keys;
    std::vector<const Expr*> values;
    if (self)
        positional.push_back(self);
    for (std::size_t i = firstArg; i < call.items.size(); ++i) {
        const std::string& key = call.keys[i - 1];
        if (key.empty()) {
            positional.push_back(&call.items[i]);
        } else {
            keys.push_back(&key);
            values.push_back(&call.items[i]);
        }
    }
    node.args = writer.list(positional);
    node.kwargs = writer.keywords(keys, values);
}

void PrintedGraphReader::describe(const Expr& value, Node& node, ArgWriter& writer)
{
    const auto unreadable = [&] {
        return Error("cannot read the right-hand side '" + excerpt(writer.source(value)) + "'");
    };
    node.kwargs = 1;
    // self.linear.weight, getattr(self.layers, "0"): an attribute of the module.
    if (auto path = dottedPath(value); path && path->starts_with("self.")) {
        node.op = NodeOp::GetAttr;
        node.target = m_builder.internOp(path->substr(5));
        return;
    }
    switch (value.kind) {
    case ExprKind::Call: {
        const Expr& callee = value.items[0];
        const auto path = dottedPath(callee);
        if (path && path->starts_with("self.")) {
            node.op = NodeOp::CallModule;
            node.target = m_builder.internOp(path->substr(5));
            callArgs(value, 1, nullptr, node, writer);
        } else if (callee.kind == ExprKind::Attribute && callee.items[0].kind == ExprKind::Name
                   && m_names.contains(callee.items[0].text)) {
            node.op = NodeOp::CallMethod; // x.relu(), x.view(4, 4)
            node.target = m_builder.internOp(callee.text);
            callArgs(value, 1, &callee.items[0], node, writer);
        } else if (path) {
            node.op = NodeOp::CallFunction;
            node.target = m_builder.internOp(normalizeTarget(*path));
            callArgs(value, 1, nullptr, node, writer);
        } else {
            throw unreadable();
        }
        return;
    }
    case ExprKind::Subscript: {
        node.target = m_builder.internOp("_operator.getitem");
        const std::array<const Expr*, 2> args {&value.items[0], &value.items[1]};
        node.args = writer.list(args);
        return;
    }
    case ExprKind::Binary:
    case ExprKind::Unary: {
        const bool unary = value.kind == ExprKind::Unary;
        const auto target = operatorTarget(value.text, unary);
        if (unary && value.items[0].kind != ExprKind::Name)
            throw Error("'" + writer.source(value) + "' is a constant, not a node");
        node.target = m_builder.internOp(target);
        std::vector<const Expr*> args;
        for (const Expr& operand : value.items)
            args.push_back(&operand);
        node.args = writer.list(args);
        return;
    }
    case ExprKind::Attribute:
        // x.shape: FX's spelling of getattr(x, "shape").
        if (value.items[0].kind == ExprKind::Name && m_names.contains(value.items[0].text)) {
            Expr attribute;
            attribute.kind = ExprKind::String;
            attribute.text = value.text;
            node.target = m_builder.internOp("builtins.getattr");
            const std::array<const Expr*, 2> args {&value.items[0], &attribute};
            node.args = writer.list(args);
            return;
        }
        throw unreadable();
    case ExprKind::Name:
        if (!m_names.contains(value.text))
            throw Error(unknownName(value.text));
        throw Error("a plain copy of '" + value.text + "' is not an FX node");
    default:
        throw Error("'" + writer.source(value) + "' is a constant, not a node");
    }
}

bool PrintedGraphReader::applyAnnotation(const Expr& annotation, Node& node) const
{
    if (annotation.kind != ExprKind::String)
        return false; // a Python type (torch 1.13's `x : torch.Tensor`): no sizes
    AnnotatedValue value = parseAnnotation(annotation.text);
    if (value.kind == AnnotatedValue::Kind::Tensor)
        node.valueKind = ValueKind::Tensor;
    else if (value.kind == AnnotatedValue::Kind::Tuple)
        node.valueKind = ValueKind::TensorList;
    node.values = std::move(value.values);
    return true;
}

void PrintedGraphReader::readReturn(const Expr* value, std::string_view code, int line)
{
    finishInputs(line);
    // return pytree.tree_unflatten([mm, None], self._out_spec) / return (mm,) / return [mm] / return mm
    if (value && value->kind == ExprKind::Call && value->items.size() >= 2 && value->keys[0].empty()) {
        if (const auto callee = dottedPath(value->items[0]); callee && callee->ends_with("tree_unflatten"))
            value = &value->items[1];
    }
    std::vector<const Expr*> leaves;
    const auto flatten = [&](const auto& self, const Expr& e) -> void {
        if (e.kind == ExprKind::List || e.kind == ExprKind::Tuple) {
            for (const Expr& item : e.items)
                self(self, item);
        } else if (e.kind == ExprKind::Dict) {
            for (std::size_t i = 1; i < e.items.size(); i += 2)
                self(self, e.items[i]);
        } else {
            leaves.push_back(&e);
        }
    };
    if (value && !isName(*value, "None"))
        flatten(flatten, *value);
    Node node;
    node.name = "output";
    node.op = NodeOp::Output;
    node.target = m_builder.internOp("output");
    node.kwargs = 1;
    try {
        ArgWriter w = writer(code);
        const auto outer = m_builder.reserveArgs(1);
        Arg list;
        list.kind = ArgKind::List;
        list.size = 1;
        list.first = leaves.empty() ? m_builder.reserveArgs(1) : w.list(leaves);
        if (leaves.empty())
            m_builder.argAt(list.first).kind = ArgKind::List;
        m_builder.argAt(outer) = list;
        node.args = outer;
    } catch (const Error& e) {
        fail(line, "the return statement: " + std::string(e.what()));
    }
    m_returnLine = line;
    m_outputCount = leaves.size();
    addNode(std::move(node), line, false);
}

void PrintedGraphReader::fillTupleValues()
{
    // torch prints tuple-returning nodes without annotation; their getitem users carry the sizes.
    const auto getitem = m_builder.internOp("_operator.getitem");
    for (const Node& node : m_nodes) {
        if (node.target != getitem || node.valueKind != ValueKind::Tensor || node.args == 0)
            continue;
        const Arg& args = m_builder.argAt(node.args);
        if (args.size != 2)
            continue;
        const Arg source = m_builder.argAt(args.first);
        const Arg index = m_builder.argAt(args.first + 1);
        if (source.kind != ArgKind::Node || index.kind != ArgKind::Int || index.integer < 0 || index.integer > 4096)
            continue;
        const auto s = static_cast<std::size_t>(source.node);
        Node& tuple = m_nodes[s];
        if (m_annotated[s] || tuple.op == NodeOp::Placeholder)
            continue;
        tuple.valueKind = ValueKind::TensorList;
        const auto i = static_cast<std::size_t>(index.integer);
        if (tuple.values.size() <= i)
            tuple.values.resize(i + 1);
        tuple.values[i] = node.values.front();
    }
}

JointGraph PrintedGraphReader::finish()
{
    fillTupleValues();
    int primals = 0;
    int tangents = 0;
    std::string other;
    for (const Node& node : m_nodes) {
        if (node.op != NodeOp::Placeholder)
            continue;
        if (node.name.starts_with("primals_"))
            ++primals;
        else if (node.name.starts_with("tangents_"))
            ++tangents;
        else if (other.empty())
            other = node.name;
    }
    if (tangents > 0) {
        if (!other.empty())
            fail(m_defLine, "input '" + other + "' is neither primals_* nor tangents_*: this looks like a partitioned"
                            " backward graph, not a joint graph (TORCH_LOGS=aot_joint_graph prints the joint graph)");
        if (static_cast<int>(m_outputCount) < primals)
            fail(m_returnLine, "a joint graph returns its forward outputs, then one gradient per primal, but this one"
                               " returns " + std::to_string(m_outputCount) + " values for "
                                   + std::to_string(primals) + " primals");
        m_builder.setKind(GraphKind::Joint);
        m_builder.setNumFwdOutputs(static_cast<int>(m_outputCount) - primals);
    } else {
        m_builder.setKind(GraphKind::Forward);
        m_builder.setNumFwdOutputs(static_cast<int>(m_outputCount));
    }
    bool anyAnnotation = false;
    for (char a : m_annotated)
        anyAnnotation = anyAnnotation || a;
    GraphSource source;
    source.producer = "printed FX graph (" + m_graph.origin + (m_graph.title.empty() ? "" : ": " + m_graph.title) + ")";
    source.model = std::filesystem::path(m_file).stem().string();
    source.description = m_className.empty() ? "def forward" : "class " + m_className;
    if (!anyAnnotation)
        source.description += "; no size annotations (torch 1.13 prints none): node sizes are unknown";
    m_builder.setSource(std::move(source));
    m_builder.setFilePath(m_file);
    try {
        for (Node& node : m_nodes)
            m_builder.addNode(std::move(node));
        return m_builder.finish();
    } catch (const Error& e) {
        throw Error(m_file + ": " + e.what());
    }
}

} // namespace

JointGraph readPrintedGraphText(const std::string& text, const std::string& fileName)
{
    const auto graph = locateGraph(text);
    if (!graph)
        throw Error(fileName + ": no printed FX graph found (expected a 'class ...(torch.nn.Module):' line, a"
                               " 'def forward(' line or a TORCH_LOGS 'TRACED GRAPH' record)");
    PrintedGraphReader reader(*graph, fileName);
    return reader.read();
}

JointGraph readPrintedGraphFile(const std::string& path)
{
    return readPrintedGraphText(readFileText(path), path);
}

} // namespace remat
