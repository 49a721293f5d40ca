// SPDX-License-Identifier: MIT
#include "window/cpu_steal_time.h"

#include <cstdio>
#include <cstring>

namespace remat::ui {

std::optional<unsigned long long> stealTicks(const char* procStatText, int cpu)
{
    if (!procStatText || cpu < 0)
        return std::nullopt;
    // A CPU's line follows a newline (the first line is the total, "cpu  "); the space after
    // the number keeps cpu1 from matching cpu10.
    char prefix[24];
    std::snprintf(prefix, sizeof prefix, "\ncpu%d ", cpu);
    const char* line = std::strstr(procStatText, prefix);
    if (!line)
        return std::nullopt;
    unsigned long long f[8] = {};
    if (std::sscanf(line + std::strlen(prefix), "%llu %llu %llu %llu %llu %llu %llu %llu", &f[0], &f[1],
            &f[2], &f[3], &f[4], &f[5], &f[6], &f[7])
        != 8)
        return std::nullopt;
    return f[7];
}

} // namespace remat::ui
