// SPDX-License-Identifier: MIT
#include "cli/child_environment.h"

#include <string_view>

namespace remat::cli {

std::vector<std::string> environmentBeforeRestart(char** environment)
{
    const std::string marker = std::string("REMAT_NO_HUGE_PAGES=") + kHugePageRestartMarker;
    bool restarted = false;
    for (char** entry = environment; *entry; ++entry)
        restarted = restarted || marker == *entry;
    std::vector<std::string> kept;
    for (char** entry = environment; *entry; ++entry) {
        const std::string_view text(*entry);
        if (restarted && (text.starts_with("GLIBC_TUNABLES=") || text.starts_with("REMAT_NO_HUGE_PAGES=")))
            continue;
        kept.emplace_back(text);
    }
    return kept;
}

} // namespace remat::cli
