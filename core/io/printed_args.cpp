// SPDX-License-Identifier: MIT
#include "io/printed_args.h"

#include "graph/error.h"

#include <array>
#include <cmath>
#include <limits>

namespace remat::printed {
namespace {

constexpr std::uint64_t kMaxInt = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());

// Python builtins FX prints by their bare name.
constexpr std::array<std::string_view, 26> kBuiltins {
    "getattr",
    "setattr",
    "hasattr",
    "len",
    "isinstance",
    "int",
    "float",
    "bool",
    "str",
    "list",
    "tuple",
    "dict",
    "range",
    "max",
    "min",
    "abs",
    "iter",
    "next",
    "slice",
    "sum",
    "round",
    "pow",
    "any",
    "all",
    "divmod",
    "print",
};

struct OperatorName {
    std::string_view symbol;
    std::string_view name;
};

// torch/fx/graph.py: magic_methods and reflectable_magic_methods.
constexpr std::array<OperatorName, 19> kBinary {{
    {"+", "add"},
    {"-", "sub"},
    {"*", "mul"},
    {"//", "floordiv"},
    {"/", "truediv"},
    {"%", "mod"},
    {"**", "pow"},
    {"<<", "lshift"},
    {">>", "rshift"},
    {"&", "and_"},
    {"|", "or_"},
    {"^", "xor"},
    {"@", "matmul"},
    {"==", "eq"},
    {"!=", "ne"},
    {"<", "lt"},
    {">", "gt"},
    {"<=", "le"},
    {">=", "ge"},
}};
constexpr std::array<OperatorName, 3> kUnary {{{"-", "neg"}, {"+", "pos"}, {"~", "invert"}}};

} // namespace

std::string operatorTarget(std::string_view op, bool unary)
{
    if (unary) {
        for (const auto& o : kUnary) {
            if (o.symbol == op)
                return "_operator." + std::string(o.name);
        }
        return {};
    }
    for (const auto& o : kBinary) {
        if (o.symbol == op)
            return "_operator." + std::string(o.name);
    }
    return {};
}

std::string normalizeTarget(std::string_view path)
{
    if (path.starts_with("torch.ops."))
        return std::string(path.substr(10));
    if (path.starts_with("operator."))
        return "_" + std::string(path);
    if (path.find('.') == std::string_view::npos) {
        for (auto b : kBuiltins) {
            if (b == path)
                return "builtins." + std::string(path);
        }
        // FX turns a non-torch callable's qualified name into an identifier: "operator.not_"
        // prints as "operator_not_".
        if (path.starts_with("operator_"))
            return "_operator." + std::string(path.substr(9));
        if (path.starts_with("_operator_"))
            return "_operator." + std::string(path.substr(10));
    }
    return std::string(path);
}

std::optional<std::string> dottedPath(const Expr& e)
{
    switch (e.kind) {
    case ExprKind::Name:
        return e.text;
    case ExprKind::Attribute:
        if (auto base = dottedPath(e.items[0]))
            return *base + "." + e.text;
        return std::nullopt;
    case ExprKind::Call:
        // getattr(self.layers, "0"): FX's spelling of an attribute that is not an identifier.
        if (e.items.size() == 3 && e.items[0].kind == ExprKind::Name && e.items[0].text == "getattr"
            && e.keys[0].empty() && e.keys[1].empty() && e.items[2].kind == ExprKind::String) {
            if (auto base = dottedPath(e.items[1]); base && base->starts_with("self"))
                return *base + "." + e.items[2].text;
        }
        return std::nullopt;
    default:
        return std::nullopt;
    }
}

std::string ArgWriter::source(const Expr& e) const
{
    const auto text = m_code.substr(e.begin, e.end - e.begin);
    if (text.find('\n') == std::string_view::npos)
        return std::string(text);
    return excerpt(text, std::string::npos);
}

ArgIndex ArgWriter::list(std::span<const Expr* const> items)
{
    if (items.empty())
        return 0;
    const auto slot = m_builder.reserveArgs(1);
    Arg arg;
    arg.kind = ArgKind::List;
    arg.size = static_cast<std::uint32_t>(items.size());
    arg.first = m_builder.reserveArgs(arg.size);
    m_builder.argAt(slot) = arg;
    for (std::size_t i = 0; i < items.size(); ++i)
        fill(*items[i], arg.first + static_cast<std::uint32_t>(i));
    return slot;
}

ArgIndex ArgWriter::keywords(std::span<const std::string* const> keys, std::span<const Expr* const> values)
{
    if (keys.empty())
        return 1;
    const auto slot = m_builder.reserveArgs(1);
    Arg arg;
    arg.kind = ArgKind::Dict;
    arg.size = static_cast<std::uint32_t>(keys.size());
    arg.first = m_builder.reserveArgs(2 * arg.size);
    m_builder.argAt(slot) = arg;
    for (std::size_t i = 0; i < keys.size(); ++i) {
        Arg key;
        key.kind = ArgKind::String;
        key.string = m_builder.intern(*keys[i]);
        m_builder.argAt(arg.first + 2 * static_cast<std::uint32_t>(i)) = key;
        fill(*values[i], arg.first + 2 * static_cast<std::uint32_t>(i) + 1);
    }
    return slot;
}

void ArgWriter::fillNumber(const Expr& e, bool negative, Arg& arg) const
{
    if (e.kind == ExprKind::Int) {
        if (e.tooBig || e.magnitude > kMaxInt + (negative ? 1 : 0))
            throw Error("integer too large: " + source(e));
        arg.kind = ArgKind::Int;
        arg.integer
            = negative ? static_cast<std::int64_t>(0 - e.magnitude) : static_cast<std::int64_t>(e.magnitude);
    } else {
        arg.kind = ArgKind::Float;
        arg.real = negative ? -e.real : e.real;
    }
}

void ArgWriter::checkNoNodes(const Expr& e, const Expr& whole) const
{
    if (e.kind == ExprKind::Name && m_lookup(e.text) != kNoNode)
        throw Error("'" + source(whole) + "' refers to node '" + e.text
            + "', which cannot be kept inside a printed object");
    for (std::size_t i = 0; i < e.items.size(); ++i) {
        // The callee and attribute names are not references; everything else may be.
        if (!((e.kind == ExprKind::Call || e.kind == ExprKind::Attribute) && i == 0))
            checkNoNodes(e.items[i], whole);
    }
}

void ArgWriter::fill(const Expr& e, std::uint32_t slot)
{
    Arg arg;
    switch (e.kind) {
    case ExprKind::Name:
        if (e.text == "None") {
            arg.kind = ArgKind::None;
        } else if (e.text == "True" || e.text == "False") {
            arg.kind = ArgKind::Bool;
            arg.boolean = e.text == "True";
        } else if (e.text == "inf" || e.text == "nan") {
            arg.kind = ArgKind::Float;
            arg.real = e.text == "inf" ? HUGE_VAL : std::nan("");
        } else if (const NodeId id = m_lookup(e.text); id != kNoNode) {
            arg.kind = ArgKind::Node;
            arg.node = id;
        } else {
            throw Error(m_unknown(e.text));
        }
        break;
    case ExprKind::Int:
    case ExprKind::Float:
        fillNumber(e, false, arg);
        break;
    case ExprKind::String:
        arg.kind = ArgKind::String;
        arg.string = m_builder.intern(e.text);
        break;
    case ExprKind::Other:
        arg.kind = ArgKind::Repr;
        arg.string = m_builder.intern(source(e));
        break;
    case ExprKind::List:
    case ExprKind::Tuple: {
        arg.kind = ArgKind::List;
        arg.size = static_cast<std::uint32_t>(e.items.size());
        arg.first = m_builder.reserveArgs(arg.size);
        for (std::size_t i = 0; i < e.items.size(); ++i)
            fill(e.items[i], arg.first + static_cast<std::uint32_t>(i));
        break;
    }
    case ExprKind::Dict: {
        arg.kind = ArgKind::Dict;
        arg.size = static_cast<std::uint32_t>(e.items.size() / 2);
        arg.first = m_builder.reserveArgs(2 * arg.size);
        for (std::size_t i = 0; i < e.items.size(); i += 2) {
            const Expr& key = e.items[i];
            Arg k;
            k.kind = ArgKind::String;
            k.string = m_builder.intern(key.kind == ExprKind::String ? key.text : source(key));
            m_builder.argAt(arg.first + static_cast<std::uint32_t>(i)) = k;
            fill(e.items[i + 1], arg.first + static_cast<std::uint32_t>(i) + 1);
        }
        break;
    }
    case ExprKind::Unary: {
        const Expr& operand = e.items[0];
        const bool negative = e.text == "-";
        if ((e.text == "-" || e.text == "+")
            && (operand.kind == ExprKind::Int || operand.kind == ExprKind::Float)) {
            fillNumber(operand, negative, arg);
        } else if ((e.text == "-" || e.text == "+") && operand.kind == ExprKind::Name
            && (operand.text == "inf" || operand.text == "nan") && m_lookup(operand.text) == kNoNode) {
            arg.kind = ArgKind::Float;
            arg.real = operand.text == "nan" ? std::nan("") : negative ? -HUGE_VAL : HUGE_VAL;
        } else {
            throw Error("unexpected expression '" + source(e) + "' in the arguments");
        }
        break;
    }
    case ExprKind::Attribute:
    case ExprKind::Call: {
        // torch.float32, torch.contiguous_format, device(type='cpu'), slice(None, 2, None)...
        const Expr* root = &e;
        while (root->kind == ExprKind::Attribute || root->kind == ExprKind::Call)
            root = &root->items[0];
        if (root->kind != ExprKind::Name || m_lookup(root->text) != kNoNode)
            throw Error("unexpected expression '" + source(e) + "' in the arguments");
        checkNoNodes(e, e);
        arg.kind = ArgKind::Repr;
        arg.string = m_builder.intern(source(e));
        break;
    }
    case ExprKind::Subscript:
    case ExprKind::Binary:
        throw Error("unexpected expression '" + source(e) + "' in the arguments");
    }
    m_builder.argAt(slot) = arg;
}

} // namespace remat::printed
