// SPDX-License-Identifier: MIT
#pragma once

#include <optional>
#include <string_view>

namespace remat {

/// Which PyTorch's rules to follow: Debian 12's torch 1.13.1, or Debian sid's torch 2.14.1
/// (proven graph by graph on ../shared/oracle/torch2). `Newest` names the latest proven set.
enum class RuleSet { Torch113, Torch214, Newest = Torch214 };

/// torch 1.13's min-cut took a `compiler` argument that picks the recomputable-op list.
enum class OpListCompiler { Nvfuser, Inductor };

std::string_view ruleSetName(RuleSet rules);
/// "torch-1.13", "torch-2.14", or "newest" (an alias of the latest proven set).
std::optional<RuleSet> parseRuleSet(std::string_view name);
/// The names parseRuleSet accepts, for messages: "torch-1.13, torch-2.14 or newest".
std::string_view ruleSetChoices();
std::string_view compilerName(OpListCompiler compiler);
std::optional<OpListCompiler> parseCompiler(std::string_view name);

} // namespace remat
