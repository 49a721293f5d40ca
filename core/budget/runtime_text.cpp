// SPDX-License-Identifier: MIT
#include "budget/runtime_text.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

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

std::string flooredOpsNote(int flooredOpsDelta, std::string_view unit)
{
    if (flooredOpsDelta == 0 || unit != "flops")
        return {};
    const int count = std::abs(flooredOpsDelta);
    return std::to_string(count) + (flooredOpsDelta > 0 ? " more" : " fewer") + " recomputed op"
        + (count == 1 ? "" : "s")
        + " without a FLOP formula, which PyTorch's flops estimator counts as 1 FLOP each";
}

} // namespace remat
