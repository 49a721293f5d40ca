// SPDX-License-Identifier: MIT
#pragma once

#include "graph/tensor_meta.h"
#include "io/symbolic_size.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace remat::printed {

/// What the quoted annotation of a printed node says about its value.
struct AnnotatedValue {
    enum class Kind : std::uint8_t {
        Tensor, ///< "f32[8, 16]", "f32[8, 16][16, 1]cuda:0", "DTensor(f32[8], S(0))": one entry in values
        Tuple, ///< "(f32[8], i64[8])": one entry per element, nullopt for non-tensors
        Symbolic, ///< "Sym(s0)", "Sym(4)": a SymInt/SymFloat/SymBool, not a tensor
        Opaque, ///< any other type name ("BackwardState"): not a tensor, size unknown
    };
    Kind kind = Kind::Opaque;
    std::vector<std::optional<TensorMeta>> values;
    /// Dynamic shapes: the symbols the sizes and strides name, or a Symbolic value's expression
    /// names, in order of appearance.
    std::vector<std::string> symbols;
    std::string expression; ///< Symbolic: the text inside "Sym(...)" ("s77", "2*s77 + 1")
};

/// Parses the text inside the quotes of an FX verbose annotation (torch 2.x print_readable).
/// A symbolic size ("f32[s77, 16]", "f32[2*s77 + 1]") takes its value from `hints`, as PyTorch's
/// partitioner does. Throws remat::Error without a location for an unknown dtype abbreviation, a
/// malformed shape, and a symbolic size without hints or that the hints cannot evaluate.
AnnotatedValue parseAnnotation(std::string_view text, const SymbolHints* hints = nullptr);

/// torch's `dtype_abbrs` ("f32", "bf16", "b8", "f8e4m3fn"...), or nullopt.
std::optional<Dtype> dtypeFromAbbreviation(std::string_view abbreviation);

} // namespace remat::printed
