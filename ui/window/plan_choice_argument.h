// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/plan_analyst.h"

#include <optional>

namespace remat::ui {

/// The plan B of `--compare`: "pytorch", "budget=B" (B in [0, 1]), "other-rules", "without-tags"
/// or an existing plan file. nullopt, and `error` says what is taken, for anything else.
std::optional<PlanChoice> planChoiceFromArgument(const QString& text, QString& error);

} // namespace remat::ui
