// SPDX-License-Identifier: MIT
#pragma once

#include "graph/joint_graph_builder.h"
#include "io/printed_expr.h"

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace remat::printed {

/// Writes parsed argument expressions into the builder's Arg pool with the JSON reader's
/// conventions: node names become Node refs, literals stay literal, `inf`/`nan` are floats, and
/// objects (`torch.float32`, `device(type='cpu')`, `slice(None, 2, None)`) become Reprs of their
/// printed text. Errors throw remat::Error without a location.
class ArgWriter {
public:
    using NameLookup = std::function<NodeId(std::string_view)>;
    using UnknownName = std::function<std::string(std::string_view)>;

    ArgWriter(JointGraphBuilder& builder, std::string_view code, NameLookup lookup, UnknownName unknown)
        : m_builder(builder)
        , m_code(code)
        , m_lookup(std::move(lookup))
        , m_unknown(std::move(unknown))
    { }

    /// A List of `items` (slot 0, the shared empty list, when there are none).
    ArgIndex list(std::span<const Expr* const> items);
    /// A Dict of keyword arguments (slot 1, the shared empty dict, when there are none).
    ArgIndex keywords(std::span<const std::string* const> keys, std::span<const Expr* const> values);
    void fill(const Expr& e, std::uint32_t slot);
    /// The expression's printed text, on one line.
    std::string source(const Expr& e) const;

private:
    void fillNumber(const Expr& e, bool negative, Arg& arg) const;
    void checkNoNodes(const Expr& e, const Expr& whole) const;

    JointGraphBuilder& m_builder;
    std::string_view m_code;
    NameLookup m_lookup;
    UnknownName m_unknown;
};

/// "torch.ops.aten.mm.default" -> "aten.mm.default", "operator.add" -> "_operator.add",
/// "getattr" -> "builtins.getattr"; other callables are kept as printed ("torch.sum").
std::string normalizeTarget(std::string_view path);

/// "a.b.c" for a chain of names and attributes; `getattr(self.layers, "0")` counts as ".0".
std::optional<std::string> dottedPath(const Expr& e);

/// "_operator.add" for "+", "_operator.neg" for a unary "-", ...; empty if unknown.
std::string operatorTarget(std::string_view op, bool unary);

} // namespace remat::printed
