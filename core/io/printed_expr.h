// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace remat::printed {

/// The Python expressions FX writes into generated code: names, literals, containers, calls,
/// attribute chains, subscripts and the operators of its "magic methods".
enum class ExprKind : std::uint8_t {
    Name, ///< text: the identifier
    Int, ///< magnitude (the sign is a Unary "-"); tooBig if it does not fit 64 bits
    Float, ///< real
    String, ///< text: the decoded value
    Other, ///< a literal with no JSON counterpart (bytes, complex): kept as its source text
    List, ///< items
    Tuple, ///< items
    Dict, ///< items: key, value, key, value...
    Call, ///< items[0]: the callee, then the arguments; keys[i]: keyword of items[i + 1] or ""
    Attribute, ///< items[0].text
    Subscript, ///< items[0][items[1]]
    Unary, ///< text: the operator ("-", "+", "~"); items[0]
    Binary, ///< text: the operator ("+", "//", "<=", ...); items[0], items[1]
};

struct Expr {
    ExprKind kind = ExprKind::Name;
    std::string text;
    std::uint64_t magnitude = 0;
    bool tooBig = false;
    double real = 0;
    std::vector<Expr> items;
    std::vector<std::string> keys;
    std::size_t begin = 0; ///< offsets into the parsed text: text.substr(begin, end - begin) is
    std::size_t end = 0; ///< the expression's source, which for FX's literals is their repr()
    int depth = 1; ///< of the tree below, bounded by the parser
};

enum class TokenKind : std::uint8_t { Name, Number, String, Op, End };

struct Token {
    TokenKind kind = TokenKind::End;
    std::string_view text;
    std::size_t offset = 0;
};

/// Splits one statement (already joined across lines, comments removed) into tokens.
/// Throws remat::Error with a message without location (the caller adds file and line).
std::vector<Token> tokenize(std::string_view text);

/// A recursive-descent parser over one tokenized statement.
class ExprParser {
public:
    ExprParser(std::string_view text, std::vector<Token> tokens)
        : m_text(text)
        , m_tokens(std::move(tokens))
    { }

    Expr parseExpression();
    const Token& peek(std::size_t ahead = 0) const;
    bool accept(std::string_view op);
    void expect(std::string_view op);
    /// Consumes a name token ("def", a parameter) or throws.
    std::string_view expectName();
    bool atEnd() const { return peek().kind == TokenKind::End; }
    std::string_view text() const { return m_text; }
    [[noreturn]] void unexpected() const;

private:
    Expr binary(int level);
    Expr unary();
    Expr postfix();
    Expr atom();
    Expr sequence(ExprKind kind, std::string_view close, std::size_t begin, std::vector<Expr> items = {});
    Expr dict(std::size_t begin);
    void callArguments(Expr& call);
    std::size_t endOfPrevious() const;
    void measure(Expr& e);
    Token next();

    std::string_view m_text;
    std::vector<Token> m_tokens;
    std::size_t m_pos = 0;
    int m_depth = 0;
};

/// Decodes a Python string literal token ('...' or "...", with backslash escapes) to UTF-8.
std::string decodeStringLiteral(std::string_view token);

/// Shortens source text for a message: one line, at most `limit` characters.
std::string excerpt(std::string_view text, std::size_t limit = 80);

} // namespace remat::printed
