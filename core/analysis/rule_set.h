// SPDX-License-Identifier: MIT
#pragma once

#include <optional>
#include <string_view>

namespace remat {

/// Which PyTorch's rules to follow: Debian's torch 1.13.1, or the newest partitioners.py.
enum class RuleSet { Torch113, Newest };

/// torch 1.13's min-cut took a `compiler` argument that picks the recomputable-op list.
enum class OpListCompiler { Nvfuser, Inductor };

std::string_view ruleSetName(RuleSet rules);
std::optional<RuleSet> parseRuleSet(std::string_view name);
std::string_view compilerName(OpListCompiler compiler);
std::optional<OpListCompiler> parseCompiler(std::string_view name);

} // namespace remat
