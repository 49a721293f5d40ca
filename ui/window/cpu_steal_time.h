// SPDX-License-Identifier: MIT
#pragma once

#include <optional>

namespace remat::ui {

/// A CPU's steal time in clock ticks (USER_HZ) from the text of /proc/stat: the eighth number of
/// its "cpu<N>" line (user, nice, system, idle, iowait, irq, softirq, steal). nullopt when the
/// CPU is not listed or its line is cut short.
std::optional<unsigned long long> stealTicks(const char* procStatText, int cpu);

} // namespace remat::ui
