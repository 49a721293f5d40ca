// SPDX-License-Identifier: MIT
#pragma once

#include "graph/node.h"

#include <QString>

#include <optional>

namespace remat::ui {

/// torch.utils.checkpoint.CheckpointPolicy names ("MUST_SAVE"); "NONE" for no tag.
const char* policyName(CheckpointPolicy policy);
std::optional<CheckpointPolicy> parsePolicy(const QString& name);

} // namespace remat::ui
