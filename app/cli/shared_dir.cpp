// SPDX-License-Identifier: MIT
#include "cli/shared_dir.h"

#include <cstdlib>

namespace remat::cli {

std::filesystem::path sharedDir()
{
    if (const char* env = std::getenv("REMAT_SHARED_DIR"); env && *env)
        return env;
    std::error_code ec;
    for (const auto* candidate : {"../shared", "shared"}) {
        if (std::filesystem::is_directory(std::filesystem::path(candidate) / "oracle", ec))
            return candidate;
    }
    return "../shared"; // the caller's message names it
}

} // namespace remat::cli
