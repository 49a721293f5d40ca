// SPDX-License-Identifier: MIT
#include "io/symbolic_size.h"

#include "graph/error.h"
#include "io/printed_expr.h"

#include <algorithm>
#include <limits>

namespace remat::printed {
namespace {

Expr parse(std::string_view expression)
{
    ExprParser parser(expression, tokenize(expression));
    Expr e = parser.parseExpression();
    if (!parser.atEnd())
        parser.unexpected();
    return e;
}

void collectSymbols(const Expr& e, std::vector<std::string>& symbols)
{
    if (e.kind == ExprKind::Name) {
        if (std::find(symbols.begin(), symbols.end(), e.text) == symbols.end())
            symbols.push_back(e.text);
        return;
    }
    // A call's callee is a function name (Max, FloorDiv), not a symbol.
    for (std::size_t i = e.kind == ExprKind::Call ? 1 : 0; i < e.items.size(); ++i)
        collectSymbols(e.items[i], symbols);
}

/// Evaluates in int64, as PyTorch holds sizes, and refuses any step that overflows.
class SizeEvaluator {
public:
    SizeEvaluator(const SymbolHints& hints, std::string_view text)
        : m_hints(hints)
        , m_text(text)
    { }

    std::int64_t operator()(const Expr& e) const
    {
        switch (e.kind) {
        case ExprKind::Int:
            if (e.tooBig
                || e.magnitude > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
                throw Error("the number " + excerpt(sourceOf(e)) + " is too large");
            return static_cast<std::int64_t>(e.magnitude);
        case ExprKind::Name:
            return hintOf(e.text);
        case ExprKind::Unary:
            if (e.text == "-")
                return sub(0, (*this)(e.items[0]));
            if (e.text == "+")
                return (*this)(e.items[0]);
            break;
        case ExprKind::Binary:
            return binary(e.text, (*this)(e.items[0]), (*this)(e.items[1]));
        case ExprKind::Call:
            return call(e);
        default:
            break;
        }
        throw Error("'" + excerpt(sourceOf(e)) + "' is not an integer size");
    }

private:
    std::string_view sourceOf(const Expr& e) const { return m_text.substr(e.begin, e.end - e.begin); }

    std::int64_t hintOf(const std::string& symbol) const
    {
        if (const auto it = m_hints.find(symbol); it != m_hints.end())
            return it->second;
        if (symbol.starts_with('u'))
            throw Error("the size depends on '" + symbol
                + "', a data-dependent (unbacked) symbol: PyTorch sizes those with heuristics this tool "
                  "does not emulate");
        throw Error(
            "the log gives no example value for the symbol '" + symbol + "' (no create_symbol record)");
    }

    [[noreturn]] static void overflow()
    {
        throw Error("the size overflows 64 bits with the symbols' example values");
    }
    static std::int64_t add(std::int64_t a, std::int64_t b)
    {
        std::int64_t r = 0;
        if (__builtin_add_overflow(a, b, &r))
            overflow();
        return r;
    }
    static std::int64_t sub(std::int64_t a, std::int64_t b)
    {
        std::int64_t r = 0;
        if (__builtin_sub_overflow(a, b, &r))
            overflow();
        return r;
    }
    static std::int64_t mul(std::int64_t a, std::int64_t b)
    {
        std::int64_t r = 0;
        if (__builtin_mul_overflow(a, b, &r))
            overflow();
        return r;
    }

    static std::int64_t floorDiv(std::int64_t a, std::int64_t b)
    {
        if (b == 0)
            throw Error("the size divides by zero with the symbols' example values");
        if (b == -1)
            return sub(0, a);
        std::int64_t q = a / b;
        if ((a % b != 0) && ((a < 0) != (b < 0)))
            --q; // Python's // rounds toward negative infinity
        return q;
    }

    static std::int64_t pythonMod(std::int64_t a, std::int64_t b) { return sub(a, mul(floorDiv(a, b), b)); }

    static std::int64_t power(std::int64_t base, std::int64_t exponent)
    {
        if (exponent < 0)
            throw Error("a negative power is not an integer size");
        if (base == 0 || base == 1)
            return exponent == 0 ? 1 : base;
        if (base == -1)
            return exponent % 2 == 0 ? 1 : -1;
        std::int64_t result = 1; // |base| >= 2 overflows within 64 steps
        for (std::int64_t i = 0; i < exponent; ++i)
            result = mul(result, base);
        return result;
    }

    std::int64_t binary(const std::string& op, std::int64_t a, std::int64_t b) const
    {
        if (op == "+")
            return add(a, b);
        if (op == "-")
            return sub(a, b);
        if (op == "*")
            return mul(a, b);
        if (op == "//")
            return floorDiv(a, b);
        if (op == "%")
            return pythonMod(a, b);
        if (op == "**")
            return power(a, b);
        throw Error("the operator '" + op + "' does not give an integer size");
    }

    std::int64_t call(const Expr& e) const
    {
        const std::string name = e.items[0].kind == ExprKind::Name ? e.items[0].text : std::string();
        std::vector<std::int64_t> args;
        for (std::size_t i = 1; i < e.items.size(); ++i) {
            if (!e.keys[i - 1].empty())
                throw Error("'" + excerpt(sourceOf(e)) + "' has a keyword argument");
            args.push_back((*this)(e.items[i]));
        }
        const auto need = [&](std::size_t n) {
            if (args.size() != n)
                throw Error("'" + name + "' takes " + std::to_string(n) + " arguments in '"
                    + excerpt(sourceOf(e)) + "'");
        };
        if ((name == "Max" || name == "Min") && !args.empty())
            return name == "Max" ? *std::max_element(args.begin(), args.end())
                                 : *std::min_element(args.begin(), args.end());
        if (name == "FloorDiv" || name == "CleanDiv") {
            need(2);
            return floorDiv(args[0], args[1]);
        }
        if (name == "CeilDiv") {
            need(2);
            return sub(0, floorDiv(sub(0, args[0]), args[1]));
        }
        if (name == "Mod" || name == "PythonMod") {
            need(2);
            return pythonMod(args[0], args[1]);
        }
        if (name == "Abs") {
            need(1);
            return args[0] < 0 ? sub(0, args[0]) : args[0];
        }
        if (name == "ModularIndexing") {
            need(3);
            return pythonMod(floorDiv(args[0], args[1]), args[2]);
        }
        throw Error("'" + excerpt(sourceOf(e)) + "' uses '" + (name.empty() ? std::string("?") : name)
            + "', which this tool cannot evaluate");
    }

    const SymbolHints& m_hints;
    std::string_view m_text;
};

} // namespace

std::vector<std::string> symbolsOf(std::string_view expression)
{
    std::vector<std::string> symbols;
    collectSymbols(parse(expression), symbols);
    return symbols;
}

std::int64_t evaluateSize(std::string_view expression, const SymbolHints& hints)
{
    return SizeEvaluator(hints, expression)(parse(expression));
}

} // namespace remat::printed
