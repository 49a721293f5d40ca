// SPDX-License-Identifier: MIT
#pragma once

#include "graph/node.h"

#include <optional>
#include <string_view>

namespace remat {

/// "MUST_SAVE" (also "CheckpointPolicy.MUST_SAVE") to the policy; nullopt for anything else.
std::optional<CheckpointPolicy> parseCheckpointPolicy(std::string_view name);
/// The policy's name as PyTorch prints it ("MUST_SAVE"); "" for CheckpointPolicy::None.
std::string_view checkpointPolicyName(CheckpointPolicy policy);

} // namespace remat
