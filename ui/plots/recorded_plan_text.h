// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/pareto_sweeper.h"

#include <QString>

#include <string_view>

namespace remat::ui {

/// Tooltip lines for one of PyTorch's recorded budget plans on the trade-off plot: its record, what
/// it keeps and costs, and whether our plan at its budget saves the same values (if not, how many
/// differ each way).
QString describeRecordedPlan(const ParetoSnapshot::Recorded& plan, std::string_view runtimeUnit);

} // namespace remat::ui
