// SPDX-License-Identifier: MIT
#include "graph/checkpoint_policy.h"

#include <array>
#include <utility>

namespace remat {
namespace {

constexpr std::array<std::pair<std::string_view, CheckpointPolicy>, 6> kPolicies {{
    {"MUST_SAVE", CheckpointPolicy::MustSave},
    {"PREFER_SAVE", CheckpointPolicy::PreferSave},
    {"MUST_RECOMPUTE", CheckpointPolicy::MustRecompute},
    {"PREFER_RECOMPUTE", CheckpointPolicy::PreferRecompute},
    {"MUST_CPU_OFFLOAD", CheckpointPolicy::MustCpuOffload},
    {"PREFER_CPU_OFFLOAD", CheckpointPolicy::PreferCpuOffload},
}};

} // namespace

std::optional<CheckpointPolicy> parseCheckpointPolicy(std::string_view name)
{
    if (name.starts_with("CheckpointPolicy."))
        name.remove_prefix(17);
    for (const auto& [text, policy] : kPolicies) {
        if (text == name)
            return policy;
    }
    return std::nullopt;
}

std::string_view checkpointPolicyName(CheckpointPolicy policy)
{
    for (const auto& [text, value] : kPolicies) {
        if (value == policy)
            return text;
    }
    return {};
}

} // namespace remat
