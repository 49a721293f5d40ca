// SPDX-License-Identifier: MIT
#pragma once

#include <span>
#include <string_view>

namespace remat::oplists {

// Overload packets ("aten.mm", "_operator.getitem") of the op categories in
// pytorch-partitioner-reference.md, sections 2.4 and 10. Facts about PyTorch, kept as data.

// torch 1.13 (functorch/_src/partitioners.py, compile_utils.py)
std::span<const std::string_view> torch113Recomputable();
std::span<const std::string_view> torch113InductorExtra(); // added when compiler == "inductor"
std::span<const std::string_view> torch113Random();
std::span<const std::string_view> torch113ComputeIntensive();
std::span<const std::string_view> torch113CseRandom(); // fx_graph_cse's rand_ops

// newest torch/_functorch/partitioners.py (get_default_op_list)
std::span<const std::string_view> newestRecomputableExplicit();
std::span<const std::string_view> newestView();
std::span<const std::string_view> newestRandom();
std::span<const std::string_view> newestComputeIntensive();
std::span<const std::string_view> newestSymOperators();
std::span<const std::string_view> newestCseExcluded();

// ATen packets with an overload tagged `pointwise` / `nondeterministic_seeded` in a recent
// native_functions.yaml (see pointwise_ops.cpp for the source revision).
std::span<const std::string_view> atenPointwise();
std::span<const std::string_view> atenNondeterministicSeeded();

// torch.fx's _side_effectful_functions (never removed by dead-code elimination)
std::span<const std::string_view> torch113SideEffectful();
std::span<const std::string_view> newestSideEffectful();

} // namespace remat::oplists
