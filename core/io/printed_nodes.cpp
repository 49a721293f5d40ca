// SPDX-License-Identifier: MIT
#include "io/printed_placement.h"
#include "io/printed_reader.h"

#include <algorithm>
#include <array>
#include <filesystem>

namespace remat::printed {

OpId PrintedGraphReader::internOp(std::string_view target)
{
    const OpId id = m_builder.internOp(target);
    if (target == "_operator.getitem")
        m_getitem = id;
    return id;
}

NodeId PrintedGraphReader::addNode(Node node, int line, bool annotated)
{
    const auto id = static_cast<NodeId>(m_nodes.size());
    const auto [it, added] = m_names.emplace(node.name, id);
    if (!added)
        fail(line,
            "a second node named '" + node.name + "' (the first is on line "
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
        const auto text = trimSpaces(line.text);
        if (text.starts_with(name) && text.size() > name.size()
            && (text[name.size()] == ':' || text.substr(name.size()).starts_with(" =")))
            return "'" + std::string(name) + "' is used before it is defined (on line "
                + std::to_string(line.number) + "); nodes must be in topological order";
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
        fail(line,
            "a second node named '" + name + "' (the first is on line "
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
        fail(line, "node '" + name + "': " + e.what() + partitionedGraphHint());
    }
    node.meta = m_meta;
    addNode(std::move(node), line, annotated);
}

void PrintedGraphReader::callArgs(
    const Expr& call, std::size_t firstArg, const Expr* self, Node& node, ArgWriter& writer)
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
    const auto unreadable
        = [&] { return Error("cannot read the right-hand side '" + excerpt(writer.source(value)) + "'"); };
    node.kwargs = 1;
    // self.linear.weight, getattr(self.layers, "0"): an attribute of the module.
    if (auto path = dottedPath(value); path && path->starts_with("self.")) {
        node.op = NodeOp::GetAttr;
        node.target = internOp(path->substr(5));
        return;
    }
    switch (value.kind) {
    case ExprKind::Call: {
        const Expr& callee = value.items[0];
        const auto path = dottedPath(callee);
        if (path && path->starts_with("self.")) {
            node.op = NodeOp::CallModule;
            node.target = internOp(path->substr(5));
            callArgs(value, 1, nullptr, node, writer);
        } else if (callee.kind == ExprKind::Attribute && callee.items[0].kind == ExprKind::Name
            && m_names.contains(callee.items[0].text)) {
            node.op = NodeOp::CallMethod; // x.relu(), x.view(4, 4)
            node.target = internOp(callee.text);
            callArgs(value, 1, &callee.items[0], node, writer);
        } else if (path && !(callee.kind == ExprKind::Name && m_names.contains(callee.text))) {
            node.op = NodeOp::CallFunction;
            node.target = internOp(normalizeTarget(*path));
            callArgs(value, 1, nullptr, node, writer);
        } else {
            throw unreadable();
        }
        return;
    }
    case ExprKind::Subscript: {
        node.target = internOp("_operator.getitem");
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
        node.target = internOp(target);
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
            node.target = internOp("builtins.getattr");
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
    applyValue(parseAnnotation(annotation.text, m_hints), node);
    return true;
}

void PrintedGraphReader::applyValue(AnnotatedValue value, Node& node)
{
    if (value.kind == AnnotatedValue::Kind::Tensor)
        node.valueKind = ValueKind::Tensor;
    else if (value.kind == AnnotatedValue::Kind::Tuple)
        node.valueKind = ValueKind::TensorList;
    else if (value.kind == AnnotatedValue::Kind::Symbolic)
        node.valueKind = ValueKind::Symbolic;
    node.values = std::move(value.values);
    if (value.symbols.empty() && value.kind != AnnotatedValue::Kind::Symbolic)
        return;
    SymbolicText& symbolic = node.symbolic.edit();
    if (value.kind == AnnotatedValue::Kind::Symbolic) {
        const std::string& e = value.expression;
        node.symbolicFloat = e.find("ToFloat") != std::string::npos || e.find("TrueDiv") != std::string::npos
            || std::any_of(value.symbols.begin(), value.symbols.end(),
                [](const std::string& s) { return s.starts_with("zf") || s.starts_with("zuf"); });
        // is_symbol_binding_fx_node: a SymInt that is one symbol, in a placeholder or unbacked.
        if (!node.symbolicFloat && value.symbols.size() == 1 && value.symbols.front() == e
            && (node.op == NodeOp::Placeholder || e.starts_with('u')))
            symbolic.bindsSymbol = e;
        symbolic.expr = std::move(value.expression);
    }
    symbolic.freeSymbols = std::move(value.symbols);
    std::sort(symbolic.freeSymbols.begin(), symbolic.freeSymbols.end());
}

void PrintedGraphReader::fillTupleValues()
{
    // torch prints tuple-returning nodes without annotation; their getitem users carry the sizes.
    if (!m_getitem)
        return;
    for (const Node& node : m_nodes) {
        if (node.target != *m_getitem || node.valueKind != ValueKind::Tensor || node.args == 0)
            continue;
        const Arg& args = m_builder.argAt(node.args);
        if (args.size != 2)
            continue;
        const Arg source = m_builder.argAt(args.first);
        const Arg index = m_builder.argAt(args.first + 1);
        if (source.kind != ArgKind::Node || index.kind != ArgKind::Int || index.integer < 0
            || index.integer > 4096)
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

std::string PrintedGraphReader::partitionedGraphHint() const
{
    const bool partitioned
        = m_graph.title.starts_with("Forward graph") || m_graph.title.starts_with("Backward graph");
    if (!partitioned)
        return {};
    return " (the file holds no joint graph, and this " + m_graph.title
        + " is one PyTorch printed after partitioning, with TORCH_LOGS=aot_graphs: print the joint graph too"
          " with TORCH_LOGS=aot_joint_graph, or open a TORCH_TRACE log)";
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
            fail(m_defLine,
                "input '" + other
                    + "' is neither primals_* nor tangents_*: this looks like a partitioned"
                      " backward graph, not a joint graph (TORCH_LOGS=aot_joint_graph prints the joint "
                      "graph)");
        if (static_cast<int>(m_outputCount) < primals)
            fail(m_returnLine,
                "a joint graph returns its forward outputs, then one gradient per primal, but this one"
                " returns "
                    + std::to_string(m_outputCount) + " values for " + std::to_string(primals) + " primals");
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
    source.producer
        = "printed FX graph (" + m_graph.origin + (m_graph.title.empty() ? "" : ": " + m_graph.title) + ")";
    source.model = std::filesystem::path(m_file).stem().string();
    source.description = m_className.empty() ? "def forward" : "class " + m_className;
    if (!anyAnnotation) {
        source.description += "; no size annotations (torch 1.13 prints none): node sizes are unknown";
        m_builder.setSizesUnknown();
    }
    // TORCH_LOGS (torch._logging) and TORCH_TRACE exist only in torch 2.x, where they log what
    // torch.compile traced: such a graph opens under the torch-2.14 rules, and its dead random ops
    // go as they do inside torch.compile (a print_readable dump says neither).
    const bool loggedByCompile = m_graph.origin == "TORCH_LOGS" || m_graph.origin == "TORCH_TRACE";
    source.partitionedInsideCompile = loggedByCompile;
    // Size annotations are torch 2.x's too: 1.13's print_readable prints none. A dump does not say
    // which inputs are parameters, which 2.14's min-cut saves for free under torch.compile.
    const bool printedBy2x = anyAnnotation && m_graph.origin == "print_readable";
    if (loggedByCompile || printedBy2x)
        m_builder.setRecordedTorchVersion("2.x");
    if (printedBy2x && tangents > 0)
        source.description
            += "; size annotations, so printed by torch 2.x: torch-2.14 rules. A printout does not"
               " say which inputs are parameters: none is static, as under aot_function"
               " (torch.compile makes them static, and 2.14's min-cut then saves them for free)";
    m_builder.setSource(std::move(source));
    m_builder.setFilePath(m_file);
    if (tangents > 0)
        inferPartitionerTags(m_nodes, m_builder, static_cast<int>(m_outputCount) - primals);
    try {
        for (Node& node : m_nodes)
            m_builder.addNode(std::move(node));
        return m_builder.finish();
    } catch (const Error& e) {
        throw Error(m_file + ": " + e.what());
    }
}

} // namespace remat::printed
