// SPDX-License-Identifier: MIT
#include "budget/runtime_text.h"

#include <cmath>
#include <cstdio>

namespace remat {

std::string runtimeText(double value, std::string_view unit)
{
    char text[64];
    if (unit == "flops") {
        static constexpr const char* kPrefixes[] = {"", "k", "M", "G", "T", "P"};
        int prefix = 0;
        while (std::fabs(value) >= 1000.0 && prefix < 5) {
            value /= 1000.0;
            ++prefix;
        }
        std::snprintf(text, sizeof text, "%.4g %sFLOP", value, kPrefixes[prefix]);
    } else if (unit == "ms") {
        if (std::fabs(value) >= 1000.0)
            std::snprintf(text, sizeof text, "%.4g s", value / 1000.0);
        else
            std::snprintf(text, sizeof text, "%.4g ms", value);
    } else {
        std::snprintf(text, sizeof text, "%.0f nodes", value);
    }
    return text;
}

} // namespace remat
