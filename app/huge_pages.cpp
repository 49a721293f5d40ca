// SPDX-License-Identifier: MIT
#include "huge_pages.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace remat {
namespace {

/// Below this an input's pages cost less than the restart (gpt_n24, 1.2 MiB, about breaks even).
constexpr std::uintmax_t kLargeInputBytes = 2u << 20;

bool transparentHugePagesOnRequest()
{
    std::ifstream mode("/sys/kernel/mm/transparent_hugepage/enabled");
    std::string text;
    std::getline(mode, text);
    return text.find("[madvise]") != std::string::npos;
}

} // namespace

bool setHugePageTunable()
{
    if (std::getenv("GLIBC_TUNABLES") || std::getenv("REMAT_NO_HUGE_PAGES") || !transparentHugePagesOnRequest())
        return false;
    // The marker keeps a restarted process (or a child that inherits it) from restarting again.
    return setenv("GLIBC_TUNABLES", "glibc.malloc.hugetlb=1", 0) == 0
        && setenv("REMAT_NO_HUGE_PAGES", "1", 0) == 0;
}

bool worthRestartingForHugePages(const std::vector<std::string>& args)
{
    if (!args.empty() && (args[0] == "bench" || args[0] == "pareto"))
        return true;
    std::error_code ec;
    for (const std::string& arg : args) {
        if (!arg.starts_with('-') && std::filesystem::file_size(arg, ec) >= kLargeInputBytes && !ec)
            return true;
    }
    return false;
}

void restartWithHugePageAllocator(char** argv)
{
    if (!setHugePageTunable())
        return;
    execv("/proc/self/exe", argv);
    // exec failed: carry on with ordinary pages.
    unsetenv("GLIBC_TUNABLES");
}

} // namespace remat
