// SPDX-License-Identifier: MIT
#include "analysis/rule_set.h"

namespace remat {

std::string_view ruleSetName(RuleSet rules)
{
    return rules == RuleSet::Torch113 ? "torch-1.13" : "torch-2.14";
}

std::optional<RuleSet> parseRuleSet(std::string_view name)
{
    if (name == "torch-1.13" || name == "1.13")
        return RuleSet::Torch113;
    if (name == "torch-2.14" || name == "2.14" || name == "newest")
        return RuleSet::Torch214;
    return std::nullopt;
}

std::string_view ruleSetChoices()
{
    return "torch-1.13, torch-2.14 or newest";
}

std::string_view compilerName(OpListCompiler compiler)
{
    return compiler == OpListCompiler::Nvfuser ? "nvfuser" : "inductor";
}

std::optional<OpListCompiler> parseCompiler(std::string_view name)
{
    if (name == "nvfuser")
        return OpListCompiler::Nvfuser;
    if (name == "inductor")
        return OpListCompiler::Inductor;
    return std::nullopt;
}

} // namespace remat
