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

bool isNameStart(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

bool isNameChar(char c)
{
    return isNameStart(c) || isDigit(c);
}

// Longest first, so that "**" wins over "*".
constexpr std::array<std::string_view, 20> kLongOps {"**=", "//=", ">>=", "<<=", "**", "//", "<<", ">>", "<=", ">=",
                                                     "==",  "!=",  "->",  "+=",  "-=", "*=", "/=", "%=", "@=", ":="};
constexpr std::string_view kShortOps = "()[]{},:.=;+-*/%@&|^~<>";

std::size_t scanString(std::string_view text, std::size_t pos)
{
    const char quote = text[pos];
    for (std::size_t i = pos + 1; i < text.size(); ++i) {
        if (text[i] == '\\')
            ++i;
        else if (text[i] == quote)
            return i + 1;
    }
    throw Error("unterminated string " + excerpt(text.substr(pos), 30));
}

std::size_t scanNumber(std::string_view text, std::size_t pos)
{
    const bool hex = text.substr(pos, 2) == "0x" || text.substr(pos, 2) == "0X";
    std::size_t i = pos;
    while (i < text.size()) {
        const char c = text[i];
        if ((c == '+' || c == '-') && (text[i - 1] == 'e' || text[i - 1] == 'E') && !hex)
            ++i;
        else if (isNameChar(c) || c == '.')
            ++i;
        else
            break;
    }
    return i;
}

void appendUtf8(std::string& out, std::uint32_t cp)
{
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    }
}

int hexValue(char c)
{
    if (isDigit(c))
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

} // namespace

std::string excerpt(std::string_view text, std::size_t limit)
{
    std::string out;
    bool space = false;
    for (char c : text) {
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            space = !out.empty();
            continue;
        }
        if (space)
            out += ' ';
        space = false;
        out += c;
    }
    if (out.size() > limit)
        out = out.substr(0, limit - 3) + "...";
    return out;
}

std::vector<Token> tokenize(std::string_view text)
{
    std::vector<Token> tokens;
    std::size_t i = 0;
    while (i < text.size()) {
        const char c = text[i];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            ++i;
            continue;
        }
        Token token;
        token.offset = i;
        std::size_t end = i + 1;
        if (isNameStart(c)) {
            while (end < text.size() && isNameChar(text[end]))
                ++end;
            // String prefixes: b'..', r"..", rb'..'
            if (end < text.size() && (text[end] == '\'' || text[end] == '"') && end - i <= 2) {
                token.kind = TokenKind::String;
                end = scanString(text, end);
            } else {
                token.kind = TokenKind::Name;
            }
        } else if (isDigit(c) || (c == '.' && i + 1 < text.size() && isDigit(text[i + 1]))) {
            token.kind = TokenKind::Number;
            end = scanNumber(text, i);
        } else if (c == '\'' || c == '"') {
            token.kind = TokenKind::String;
            end = scanString(text, i);
        } else {
            token.kind = TokenKind::Op;
            bool matched = false;
            for (auto op : kLongOps) {
                if (text.substr(i, op.size()) == op) {
                    end = i + op.size();
                    matched = true;
                    break;
                }
            }
            if (!matched && kShortOps.find(c) == std::string_view::npos)
                throw Error(std::string("unexpected character '") + c + "'");
        }
        token.text = text.substr(i, end - i);
        tokens.push_back(token);
        i = end;
    }
    tokens.push_back(Token {TokenKind::End, {}, text.size()});
    return tokens;
}

std::string decodeStringLiteral(std::string_view token)
{
    bool raw = false;
    while (!token.empty() && token.front() != '\'' && token.front() != '"') {
        raw = raw || token.front() == 'r' || token.front() == 'R';
        token.remove_prefix(1);
    }
    const std::string_view body = token.substr(1, token.size() - 2);
    std::string out;
    out.reserve(body.size());
    for (std::size_t i = 0; i < body.size(); ++i) {
        if (body[i] != '\\' || raw || i + 1 == body.size()) {
            out += body[i];
            continue;
        }
        const char e = body[++i];
        switch (e) {
        case 'n': out += '\n'; break;
        case 't': out += '\t'; break;
        case 'r': out += '\r'; break;
        case 'a': out += '\a'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'v': out += '\v'; break;
        case '\n': break;
        case 'x':
        case 'u':
        case 'U': {
            const std::size_t digits = e == 'x' ? 2 : e == 'u' ? 4 : 8;
            std::uint32_t cp = 0;
            std::size_t k = 0;
            for (; k < digits && i + 1 + k < body.size() && hexValue(body[i + 1 + k]) >= 0; ++k)
                cp = cp * 16 + static_cast<std::uint32_t>(hexValue(body[i + 1 + k]));
            if (k != digits || cp > 0x10FFFF)
                throw Error("invalid escape in string " + excerpt(token, 30));
            appendUtf8(out, cp);
            i += digits;
            break;
        }
        default:
            if (e >= '0' && e <= '7') {
                std::uint32_t cp = 0;
                std::size_t k = 0;
                for (; k < 3 && i + k < body.size() && body[i + k] >= '0' && body[i + k] <= '7'; ++k)
                    cp = cp * 8 + static_cast<std::uint32_t>(body[i + k] - '0');
                appendUtf8(out, cp);
                i += k - 1;
            } else if (e == '\\' || e == '\'' || e == '"') {
                out += e;
            } else {
                out += '\\';
                out += e;
            }
        }
    }
    return out;
}

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
        lhs = std::move(e);
        if (level == 0)
            break;
    }
    return lhs;
}

Expr ExprParser::unary()
{
    if (peek().kind == TokenKind::Op && (peek().text == "-" || peek().text == "+" || peek().text == "~")) {
        if (++m_depth > kMaxDepth)
            throw Error("expression nested too deeply");
        Expr e;
        e.kind = ExprKind::Unary;
        e.begin = peek().offset;
        e.text = std::string(next().text);
        e.items.push_back(unary());
        e.end = e.items.back().end;
        --m_depth;
        return e;
    }
    Expr base = postfix();
    if (accept("**")) {
        Expr e;
        e.kind = ExprKind::Binary;
        e.text = "**";
        e.begin = base.begin;
        e.items.push_back(std::move(base));
        e.items.push_back(unary());
        e.end = e.items.back().end;
        return e;
    }
    return base;
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
    if (!e.items.empty() && !accept(",")) {
        expect(close);
        e.end = endOfPrevious();
        return e;
    }
    while (!accept(close)) {
        e.items.push_back(parseExpression());
        if (!accept(",")) {
            expect(close);
            break;
        }
    }
    e.end = endOfPrevious();
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
            const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), e.magnitude, base);
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
