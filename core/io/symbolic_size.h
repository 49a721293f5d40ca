// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace remat::printed {

/// The example value of each backed symbol of one compilation ("s77" -> 6): what a TORCH_TRACE
/// log's create_symbol records say, and what PyTorch's partitioner sizes values with
/// (optimization_hint) under dynamic shapes.
using SymbolHints = std::map<std::string, std::int64_t, std::less<>>;

/// The symbols an expression printed by sympy names ("s77*(((s53 - 1)//2))" -> s53, s77), in order
/// of appearance, each once. Throws remat::Error (no location) when the text is no expression.
std::vector<std::string> symbolsOf(std::string_view expression);

/// A size PyTorch printed from a SymInt ("s77*(2*(((s53 - 1)//2)) + 1)"), evaluated with the
/// symbols' example values as PyTorch does. Knows sympy's integer arithmetic (+ - * // % **) and
/// torch's size functions (Max, Min, FloorDiv, CeilDiv, Mod, PythonMod, CleanDiv, Abs,
/// ModularIndexing). Throws remat::Error (no location) naming a symbol without example value, an
/// unknown function, a division by zero or an overflow.
std::int64_t evaluateSize(std::string_view expression, const SymbolHints& hints);

} // namespace remat::printed
