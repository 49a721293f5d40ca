// SPDX-License-Identifier: MIT
#include "install/data_dir.h"

#include <cstdlib>

namespace remat {
namespace {

std::filesystem::path findDataDir()
{
    if (const char* env = std::getenv("REMAT_DATA_DIR"); env && *env)
        return env;
    std::error_code ec;
    const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (ec)
        return {};
    // PREFIX/bin/remat-explorer and PREFIX/lib/remat-explorer/remat-explorer-gui (also build/app/,
    // build/tests/ and build/lib/remat-explorer/ in the build tree).
    for (const char* up : {"..", "../.."}) {
        const auto candidate = (exe.parent_path() / up / "share" / "remat-explorer").lexically_normal();
        if (std::filesystem::is_regular_file(candidate / "device_profiles.json", ec))
            return candidate;
    }
    return {};
}

} // namespace

std::filesystem::path dataDir()
{
    static const std::filesystem::path dir = findDataDir();
    return dir;
}

std::filesystem::path dataFile(const std::filesystem::path& name)
{
    const auto dir = dataDir();
    return dir.empty() ? name : dir / name;
}

} // namespace remat
