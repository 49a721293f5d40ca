// SPDX-License-Identifier: MIT
#include "io/printed_expr.h"

#include "graph/error.h"

#include <array>
#include <charconv>
#include <cmath>

namespace remat::printed {
namespace {

// Deeper nesting than this is not something FX prints; refusing it keeps the recursion bounded.
constexpr int kMaxDepth = 200;
// Chains (a.b.c, f()(), a + b + c) build trees iteratively, but trees are walked and destroyed
// recursively: their depth is bounded too.
constexpr int kMaxTreeDepth = 1000;

} // namespace

const Token& ExprParser::peek(std::size_t ahead) const
{
    return m_tokens[std::min(m_pos + ahead, m_tokens.size() - 1)];
}

Token ExprParser::next()
{
    Token token = peek();
    if (m_pos + 1 < m_tokens.size())
        ++m_pos;
    return token;
}

bool ExprParser::accept(std::string_view op)
{
    if (peek().kind == TokenKind::Op && peek().text == op) {
        next();
        return true;
    }
    return false;
}

void ExprParser::expect(std::string_view op)
{
    if (!accept(op)) {
        if (atEnd())
            throw Error("expected '" + std::string(op) + "' but the statement ends");
        throw Error("expected '" + std::string(op) + "' but found '" + std::string(peek().text) + "'");
    }
}

std::string_view ExprParser::expectName()
{
    if (peek().kind != TokenKind::Name)
        unexpected();
    return next().text;
}

void ExprParser::unexpected() const
{
    if (atEnd())
        throw Error("unexpected end of statement");
    throw Error("unexpected '" + std::string(peek().text) + "'");
}

std::size_t ExprParser::endOfPrevious() const
{
    if (m_pos == 0)
        return 0;
    const Token& previous = m_tokens[m_pos - 1];
    return previous.offset + previous.text.size();
}

void ExprParser::measure(Expr& e)
{
    e.depth = 1;
    for (const Expr& item : e.items)
        e.depth = std::max(e.depth, item.depth + 1);
    if (e.depth > kMaxTreeDepth)
        throw Error("expression nested too deeply");
}

Expr ExprParser::parseExpression()
{
    if (++m_depth > kMaxDepth)
        throw Error("expression nested too deeply");
    Expr e = binary(0);
    --m_depth;
    return e;
}

Expr ExprParser::binary(int level)
{
    // Python's precedence, lowest first; comparisons do not chain in FX's output.
    static constexpr std::array<std::array<std::string_view, 6>, 7> kLevels {{
        {"<", ">", "==", "!=", "<=", ">="},
        {"|"},
        {"^"},
        {"&"},
        {"<<", ">>"},
        {"+", "-"},
        {"*", "/", "//", "%", "@"},
    }};
    if (level == static_cast<int>(kLevels.size()))
        return unary();
    Expr lhs = binary(level + 1);
    while (peek().kind == TokenKind::Op) {
        const auto& ops = kLevels[static_cast<std::size_t>(level)];
        bool found = false;
        for (auto op : ops)
            found = found || (!op.empty() && op == peek().text);
        if (!found)
            break;
        Expr e;
        e.kind = ExprKind::Binary;
        e.text = std::string(next().text);
        e.begin = lhs.begin;
        e.items.push_back(std::move(lhs));
        e.items.push_back(binary(level + 1));
        e.end = e.items.back().end;
        measure(e);
        lhs = std::move(e);
        if (level == 0)
            break;
    }
    return lhs;
}

Expr ExprParser::unary()
{
    // Counted like parseExpression: "- - x" and "x ** x ** x" recurse here without brackets.
    if (++m_depth > kMaxDepth)
        throw Error("expression nested too deeply");
    Expr e;
    if (peek().kind == TokenKind::Op && (peek().text == "-" || peek().text == "+" || peek().text == "~")) {
        e.kind = ExprKind::Unary;
        e.begin = peek().offset;
        e.text = std::string(next().text);
        e.items.push_back(unary());
    } else {
        Expr base = postfix();
        if (!accept("**")) {
            --m_depth;
            return base;
        }
        e.kind = ExprKind::Binary;
        e.text = "**";
        e.begin = base.begin;
        e.items.push_back(std::move(base));
        e.items.push_back(unary());
    }
    e.end = e.items.back().end;
    measure(e);
    --m_depth;
    return e;
}

Expr ExprParser::postfix()
{
    Expr e = atom();
    while (true) {
        Expr wrapped;
        wrapped.begin = e.begin;
        if (accept(".")) {
            if (peek().kind != TokenKind::Name)
                unexpected();
            wrapped.kind = ExprKind::Attribute;
            wrapped.text = std::string(next().text);
            wrapped.items.push_back(std::move(e));
        } else if (accept("(")) {
            wrapped.kind = ExprKind::Call;
            wrapped.items.push_back(std::move(e));
            callArguments(wrapped);
        } else if (accept("[")) {
            wrapped.kind = ExprKind::Subscript;
            wrapped.items.push_back(std::move(e));
            const std::size_t begin = peek().offset;
            Expr index = parseExpression();
            if (peek().text == ",") {
                std::vector<Expr> first;
                first.push_back(std::move(index));
                wrapped.items.push_back(sequence(ExprKind::Tuple, "]", begin, std::move(first)));
            } else {
                expect("]");
                wrapped.items.push_back(std::move(index));
            }
        } else {
            return e;
        }
        wrapped.end = endOfPrevious();
        measure(wrapped);
        e = std::move(wrapped);
    }
}

void ExprParser::callArguments(Expr& call)
{
    while (!accept(")")) {
        std::string key;
        if (peek().kind == TokenKind::Name && peek(1).kind == TokenKind::Op && peek(1).text == "=") {
            key = std::string(next().text);
            next();
        } else if (!call.keys.empty() && !call.keys.back().empty()) {
            throw Error("a positional argument follows a keyword argument");
        }
        call.items.push_back(parseExpression());
        call.keys.push_back(std::move(key));
        if (!accept(",")) {
            expect(")");
            break;
        }
    }
}

Expr ExprParser::sequence(ExprKind kind, std::string_view close, std::size_t begin, std::vector<Expr> items)
{
    // Called after the opening bracket, or after the first element of "(x, ..." and "x[a, ...".
    Expr e;
    e.kind = kind;
    e.begin = begin;
    e.items = std::move(items);
    if (e.items.empty() || accept(",")) {
        while (!accept(close)) {
            e.items.push_back(parseExpression());
            if (!accept(",")) {
                expect(close);
                break;
            }
        }
    } else {
        expect(close);
    }
    e.end = endOfPrevious();
    measure(e);
    return e;
}

Expr ExprParser::dict(std::size_t begin)
{
    Expr e;
    e.kind = ExprKind::Dict;
    e.begin = begin;
    while (!accept("}")) {
        e.items.push_back(parseExpression());
        expect(":");
        e.items.push_back(parseExpression());
        if (!accept(",")) {
            expect("}");
            break;
        }
    }
    e.end = endOfPrevious();
    measure(e);
    return e;
}

Expr ExprParser::atom()
{
    const Token token = peek();
    Expr e;
    e.begin = token.offset;
    switch (token.kind) {
    case TokenKind::End:
        unexpected();
    case TokenKind::Name:
        next();
        e.kind = ExprKind::Name;
        e.text = std::string(token.text);
        break;
    case TokenKind::Number: {
        next();
        const auto t = token.text;
        const bool isFloat = !t.starts_with("0x") && !t.starts_with("0X")
            && t.find_first_of(".eE") != std::string_view::npos;
        if (t.ends_with('j') || t.ends_with('J')) {
            e.kind = ExprKind::Other;
        } else if (isFloat) {
            e.kind = ExprKind::Float;
            const auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), e.real);
            if (ec == std::errc::result_out_of_range)
                e.real = t.find("e-") != std::string_view::npos ? 0.0 : HUGE_VAL;
            else if (ec != std::errc() || ptr != t.data() + t.size())
                throw Error("malformed number '" + std::string(t) + "'");
        } else {
            e.kind = ExprKind::Int;
            const int base = t.starts_with("0x") || t.starts_with("0X") ? 16 : 10;
            const auto digits = base == 16 ? t.substr(2) : t;
            const auto [ptr, ec]
                = std::from_chars(digits.data(), digits.data() + digits.size(), e.magnitude, base);
            if (ec == std::errc::result_out_of_range)
                e.tooBig = true;
            else if (ec != std::errc() || ptr != digits.data() + digits.size())
                throw Error("malformed number '" + std::string(t) + "'");
        }
        break;
    }
    case TokenKind::String:
        next();
        if (token.text.front() != '\'' && token.text.front() != '"'
            && token.text.find_first_of("bBfF") < token.text.find_first_of("'\"")) {
            e.kind = ExprKind::Other; // bytes and f-strings have no JSON counterpart
            break;
        }
        e.kind = ExprKind::String;
        e.text = decodeStringLiteral(token.text);
        while (peek().kind == TokenKind::String) // implicit concatenation: 'a' 'b'
            e.text += decodeStringLiteral(next().text);
        break;
    case TokenKind::Op:
        next();
        if (token.text == "(") {
            if (accept(")")) {
                e.kind = ExprKind::Tuple;
                break;
            }
            Expr first = parseExpression();
            if (peek().text != ",") {
                expect(")");
                return first;
            }
            std::vector<Expr> items;
            items.push_back(std::move(first));
            return sequence(ExprKind::Tuple, ")", token.offset, std::move(items));
        }
        if (token.text == "[")
            return sequence(ExprKind::List, "]", token.offset);
        if (token.text == "{")
            return dict(token.offset);
        --m_pos;
        unexpected();
    }
    e.end = endOfPrevious();
    return e;
}

} // namespace remat::printed
