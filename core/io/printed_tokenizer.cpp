// SPDX-License-Identifier: MIT
#include "io/printed_expr.h"

#include "graph/error.h"

#include <array>

namespace remat::printed {
namespace {

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
constexpr std::array<std::string_view, 20> kLongOps {"**=", "//=", ">>=", "<<=", "**", "//", "<<", ">>",
    "<=", ">=", "==", "!=", "->", "+=", "-=", "*=", "/=", "%=", "@=", ":="};
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
        case 'n':
            out += '\n';
            break;
        case 't':
            out += '\t';
            break;
        case 'r':
            out += '\r';
            break;
        case 'a':
            out += '\a';
            break;
        case 'b':
            out += '\b';
            break;
        case 'f':
            out += '\f';
            break;
        case 'v':
            out += '\v';
            break;
        case '\n':
            break;
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

} // namespace remat::printed
