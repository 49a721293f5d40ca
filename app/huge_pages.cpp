// SPDX-License-Identifier: MIT
#include "huge_pages.h"

#include <cstdlib>
#include <fstream>
#include <string>
#include <unistd.h>

namespace remat {
namespace {

bool transparentHugePagesOnRequest()
{
    std::ifstream mode("/sys/kernel/mm/transparent_hugepage/enabled");
    std::string text;
    std::getline(mode, text);
    return text.find("[madvise]") != std::string::npos;
}

} // namespace

void restartWithHugePageAllocator(char** argv)
{
    if (std::getenv("GLIBC_TUNABLES") || std::getenv("REMAT_NO_HUGE_PAGES") || !transparentHugePagesOnRequest())
        return;
    // The marker keeps a restarted process (or a child that inherits it) from restarting again.
    if (setenv("GLIBC_TUNABLES", "glibc.malloc.hugetlb=1", 0) != 0 || setenv("REMAT_NO_HUGE_PAGES", "1", 0) != 0)
        return;
    execv("/proc/self/exe", argv);
    // exec failed: carry on with ordinary pages.
    unsetenv("GLIBC_TUNABLES");
}

} // namespace remat
