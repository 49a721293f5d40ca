// SPDX-License-Identifier: MIT
#include "io/printed_graph_reader.h"

#include "io/file_text.h"
#include "io/printed_meta.h"
#include "io/printed_reader.h"
#include "io/text_encoding.h"

namespace remat {
namespace printed {
namespace {

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

} // namespace

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
    if (m_graph.lines.empty()) // a TORCH_TRACE record whose payload is missing
        throw LocatedError(m_file + ": no graph text"
            + (m_graph.title.empty() ? "" : " in the " + m_graph.title + " record"));
    auto s = nextCode(0);
    if (s && trimSpaces(s->code).starts_with("class ")) {
        const auto code = trimSpaces(s->code);
        m_className = std::string(code.substr(6, code.find('(') - 6));
        s = nextCode(0);
    }
    if (!s || !trimSpaces(s->code).starts_with("def ")) {
        const int line = s ? s->line : m_graph.lines.front().number; // not empty: checked above
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
            fail(statement->line,
                trimSpaces(statement->code).starts_with("return")
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
                    input.value = parseAnnotation(annotation.text, m_hints);
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
        fail(s.line, "unknown statement '" + excerpt(s.code) + "' (" + e.what() + ")");
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
            fail(line, "unknown statement '" + statementText() + "' (" + e.what() + ")");
        }
        if (isReturn)
            readReturn(value ? &*value : nullptr, code, line);
        else if (value)
            fail(line, "unknown statement '" + statementText() + "'");
        return;
    }
    Assignment a;
    try {
        a = parseAssignment(p);
    } catch (const Error& e) {
        fail(line, "unknown statement '" + statementText() + "' (" + e.what() + ")");
    }
    if (!a.value) {
        annotationOnly(a.targets.front(), *a.annotation, line);
        return;
    }
    if (isName(*a.value, "None")) { // "t = None" and "a = b = None": FX freeing values early
        for (const Expr& target : a.targets) {
            if (target.kind != ExprKind::Name)
                fail(line, "unknown statement '" + statementText() + "'");
            if (!m_names.contains(target.text))
                fail(line, "'" + target.text + "' is set to None but is not a node");
        }
        return;
    }
    if (a.targets.size() > 1)
        fail(line, "unknown statement '" + statementText() + "' (FX does not print chained assignments)");
    const Expr& target = a.targets.front();
    if (target.kind == ExprKind::Tuple) {
        flattenedInputs(target, *a.value, line);
        return;
    }
    if (target.kind != ExprKind::Name)
        fail(line, "unknown statement '" + statementText() + "' (the left-hand side is not a name)");
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
        m_pendingAnnotations.emplace_back(
            target.text, std::make_pair(parseAnnotation(annotation.text, m_hints), line));
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
        fail(line,
            "cannot read this assignment to several names: only fx_pytree.tree_flatten_spec(...) assigns"
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
        node.target = internOp(input.name);
        node.kwargs = 1;
        std::optional<AnnotatedValue> value = std::move(input.value);
        for (auto it = m_pendingAnnotations.begin(); it != m_pendingAnnotations.end(); ++it) {
            if (it->first == input.name) {
                value = std::move(it->second.first);
                m_pendingAnnotations.erase(it);
                break;
            }
        }
        if (value)
            applyValue(std::move(*value), node);
        addNode(std::move(node), input.line ? input.line : line, value.has_value());
    }
    if (!m_pendingAnnotations.empty())
        fail(m_pendingAnnotations.front().second.second,
            "an annotation of '" + m_pendingAnnotations.front().first + "', which is not an input");
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
    node.target = internOp("output");
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

} // namespace printed

JointGraph readPrintedGraphText(const std::string& text, const std::string& fileName)
{
    if (const auto encoding = findEncodingError(text))
        throw Error(fileName + ":" + *encoding);
    const auto graph = printed::locateGraph(text);
    if (!graph)
        throw Error(fileName
            + ": no printed FX graph found (expected a 'class ...(torch.nn.Module):' line, a"
              " 'def forward(' line or a TORCH_LOGS 'TRACED GRAPH' record)");
    printed::PrintedGraphReader reader(*graph, fileName, nullptr);
    return reader.read();
}

JointGraph readPrintedGraph(
    const printed::GraphText& graph, const std::string& fileName, const printed::SymbolHints* hints)
{
    printed::PrintedGraphReader reader(graph, fileName, hints);
    return reader.read();
}

JointGraph readPrintedGraphFile(const std::string& path)
{
    return readPrintedGraphText(readFileText(path), path);
}

} // namespace remat
