// SPDX-License-Identifier: MIT
#include "io/printed_annotation.h"

#include "graph/error.h"
#include "io/printed_source.h"
#include "io/symbolic_size.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <string>

namespace remat::printed {
namespace {

struct Abbreviation {
    std::string_view text;
    Dtype dtype;
};

// torch/utils/_dtype_abbrs.py (formerly in torch/fx/graph.py).
constexpr std::array kAbbreviations {
    Abbreviation {"f32", Dtype::Float32},
    Abbreviation {"f64", Dtype::Float64},
    Abbreviation {"f16", Dtype::Float16},
    Abbreviation {"bf16", Dtype::BFloat16},
    Abbreviation {"f8e4m3fn", Dtype::Float8E4M3Fn},
    Abbreviation {"f8e5m2", Dtype::Float8E5M2},
    Abbreviation {"f8e4m3fnuz", Dtype::Float8E4M3FnUz},
    Abbreviation {"f8e5m2fnuz", Dtype::Float8E5M2FnUz},
    Abbreviation {"f8e8m0fnu", Dtype::Float8E8M0FnU},
    Abbreviation {"c32", Dtype::Complex32},
    Abbreviation {"c64", Dtype::Complex64},
    Abbreviation {"c128", Dtype::Complex128},
    Abbreviation {"i8", Dtype::Int8},
    Abbreviation {"i16", Dtype::Int16},
    Abbreviation {"i32", Dtype::Int32},
    Abbreviation {"i64", Dtype::Int64},
    Abbreviation {"b8", Dtype::Bool},
    Abbreviation {"u8", Dtype::UInt8},
    Abbreviation {"u16", Dtype::UInt16},
    Abbreviation {"u32", Dtype::UInt32},
    Abbreviation {"u64", Dtype::UInt64},
};

// Abbreviations torch prints for dtypes our model does not have.
constexpr std::array<std::string_view, 3> kUnsupported {"f4e2m1fnx2", "b16", "b1x8"};

std::string quoted(std::string_view text)
{
    return "\"" + std::string(text) + "\"";
}

/// Splits "a, b(c, d), e" at the commas outside brackets.
std::vector<std::string_view> splitTopLevel(std::string_view text)
{
    std::vector<std::string_view> parts;
    int depth = 0;
    std::size_t start = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '(' || c == '[')
            ++depth;
        else if (c == ')' || c == ']')
            --depth;
        else if (c == ',' && depth == 0) {
            parts.push_back(trimSpaces(text.substr(start, i - start)));
            start = i + 1;
        }
    }
    if (!trimSpaces(text.substr(start)).empty() || !parts.empty())
        parts.push_back(trimSpaces(text.substr(start)));
    return parts;
}

/// Where a dynamic-shape graph's symbolic sizes get their values, and the symbols they name.
struct SymbolicSizes {
    const SymbolHints* hints = nullptr;
    std::vector<std::string>* symbols = nullptr;
};

std::int64_t symbolicDim(
    std::string_view part, std::string_view whole, const char* what, const SymbolicSizes& symbolic)
{
    if (!symbolic.hints)
        throw Error("symbolic " + std::string(what) + " '" + std::string(part) + "' in the annotation "
            + quoted(whole)
            + ": a graph traced with dynamic shapes cannot be sized from its printout alone; open the run's"
              " TORCH_TRACE log, whose create_symbol records give the symbols' example values, or trace with"
              " static shapes (torch.compile(dynamic=False))");
    try {
        for (std::string& symbol : symbolsOf(part)) {
            if (std::find(symbolic.symbols->begin(), symbolic.symbols->end(), symbol)
                == symbolic.symbols->end())
                symbolic.symbols->push_back(std::move(symbol));
        }
        return evaluateSize(part, *symbolic.hints);
    } catch (const Error& e) {
        throw Error("symbolic " + std::string(what) + " '" + std::string(part) + "' in the annotation "
            + quoted(whole) + ": " + e.what());
    }
}

std::vector<std::int64_t> readDims(
    std::string_view list, std::string_view whole, const char* what, const SymbolicSizes& symbolic)
{
    std::vector<std::int64_t> dims;
    for (const auto part : splitTopLevel(list)) {
        std::int64_t value = 0;
        const auto [ptr, ec] = std::from_chars(part.data(), part.data() + part.size(), value);
        if (ec == std::errc() && ptr == part.data() + part.size() && value >= 0) {
            dims.push_back(value);
            continue;
        }
        if (part.empty() || ec == std::errc::result_out_of_range || (ec == std::errc() && value < 0))
            throw Error(std::string("malformed ") + what + " in the annotation " + quoted(whole));
        value = symbolicDim(part, whole, what, symbolic);
        if (value < 0)
            throw Error("symbolic " + std::string(what) + " '" + std::string(part) + "' in the annotation "
                + quoted(whole) + " is " + std::to_string(value) + " with the symbols' example values");
        dims.push_back(value);
    }
    return dims;
}

/// "[...]" at the start of `rest`: returns the inside and advances `rest` past it.
std::string_view bracketed(std::string_view& rest, std::string_view whole)
{
    int depth = 0;
    for (std::size_t i = 0; i < rest.size(); ++i) {
        if (rest[i] == '[')
            ++depth;
        else if (rest[i] == ']' && --depth == 0) {
            const auto inside = rest.substr(1, i - 1);
            rest.remove_prefix(i + 1);
            return inside;
        }
    }
    throw Error("unbalanced brackets in the annotation " + quoted(whole));
}

TensorMeta parseTensor(std::string_view text, std::string_view whole, const SymbolicSizes& symbolic)
{
    const auto open = text.find('[');
    const auto abbreviation = trimSpaces(text.substr(0, open));
    const auto dtype = dtypeFromAbbreviation(abbreviation);
    if (!dtype) {
        for (auto u : kUnsupported) {
            if (u == abbreviation)
                throw Error("dtype '" + std::string(abbreviation) + "' in the annotation " + quoted(whole)
                    + " is not supported");
        }
        throw Error("unknown dtype '" + std::string(abbreviation) + "' in the annotation " + quoted(whole));
    }
    TensorMeta meta;
    meta.dtype = *dtype;
    std::string_view rest = text.substr(open);
    meta.shape = readDims(bracketed(rest, whole), whole, "size", symbolic);
    if (rest.starts_with('[')) {
        meta.stride = readDims(bracketed(rest, whole), whole, "stride", symbolic);
        if (meta.stride.size() != meta.shape.size())
            throw Error("the annotation " + quoted(whole) + " has " + std::to_string(meta.shape.size())
                + " sizes but " + std::to_string(meta.stride.size()) + " strides");
    }
    meta.device = std::string(trimSpaces(rest));
    if (meta.device.find_first_of("[](), ") != std::string::npos)
        throw Error("malformed device '" + meta.device + "' in the annotation " + quoted(whole));
    return meta;
}

/// The symbols of a SymInt/SymFloat/SymBool's printed expression. Its size is 1 whatever it says,
/// so an expression this reader cannot parse only loses the symbols (used to bind the backward's).
std::vector<std::string> symbolsOfSymbolicValue(std::string_view expression)
{
    static constexpr std::array<std::string_view, 7> kConstants {
        "True", "False", "None", "oo", "int_oo", "zoo", "nan"};
    try {
        std::vector<std::string> symbols = symbolsOf(expression);
        std::erase_if(symbols, [](const std::string& s) {
            return std::find(kConstants.begin(), kConstants.end(), s) != kConstants.end();
        });
        return symbols;
    } catch (const Error&) {
        return {};
    }
}

bool isIdentifier(std::string_view s)
{
    if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s.front())) || s.front() == '_'))
        return false;
    for (char c : s) {
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.'))
            return false;
    }
    return true;
}

} // namespace

std::optional<Dtype> dtypeFromAbbreviation(std::string_view abbreviation)
{
    for (const auto& a : kAbbreviations) {
        if (a.text == abbreviation)
            return a.dtype;
    }
    return std::nullopt;
}

AnnotatedValue parseAnnotation(std::string_view text, const SymbolHints* hints)
{
    const std::string_view whole = text;
    text = trimSpaces(text);
    AnnotatedValue value;
    const SymbolicSizes symbolic {hints, &value.symbols};
    if (text.starts_with("Sym(")) {
        value.kind = AnnotatedValue::Kind::Symbolic;
        value.expression
            = std::string(trimSpaces(text.substr(4, text.size() - (text.ends_with(')') ? 5 : 4))));
        value.symbols = symbolsOfSymbolicValue(value.expression);
        return value;
    }
    if (text.starts_with('(') && text.ends_with(')')) {
        value.kind = AnnotatedValue::Kind::Tuple;
        for (const auto element : splitTopLevel(text.substr(1, text.size() - 2))) {
            if (element.starts_with('('))
                throw Error("nested tuple in the annotation " + quoted(whole));
            if (element.empty() || element == "None") {
                value.values.emplace_back(std::nullopt);
                continue;
            }
            auto inner = parseAnnotation(element, hints);
            for (std::string& symbol : inner.symbols) {
                if (std::find(value.symbols.begin(), value.symbols.end(), symbol) == value.symbols.end())
                    value.symbols.push_back(std::move(symbol));
            }
            if (inner.kind == AnnotatedValue::Kind::Tensor)
                value.values.emplace_back(std::move(inner.values.front()));
            else
                value.values.emplace_back(std::nullopt);
        }
        return value;
    }
    // A tensor subclass prints as "ClassName(<tensor>, extra...)".
    const auto paren = text.find('(');
    const auto bracket = text.find('[');
    if (paren != std::string_view::npos && (bracket == std::string_view::npos || paren < bracket)
        && isIdentifier(text.substr(0, paren)) && text.ends_with(')')) {
        const auto inside = splitTopLevel(text.substr(paren + 1, text.size() - paren - 2));
        if (inside.empty())
            throw Error("malformed annotation " + quoted(whole));
        value.kind = AnnotatedValue::Kind::Tensor;
        value.values.emplace_back(parseTensor(inside.front(), whole, symbolic));
        return value;
    }
    if (bracket == std::string_view::npos) {
        if (!isIdentifier(text))
            throw Error("malformed annotation " + quoted(whole));
        return value; // a non-tensor type name
    }
    value.kind = AnnotatedValue::Kind::Tensor;
    value.values.emplace_back(parseTensor(text, whole, symbolic));
    return value;
}

} // namespace remat::printed
