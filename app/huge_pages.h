// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

namespace remat {

/// Loading and partitioning a large graph touches tens of thousands of fresh 4 KiB pages, and on
/// a VM each page fault is dear (gpt_n96: 13.5k faults, half of a cold 60 ms run). With the
/// kernel's transparent huge pages in "madvise" mode, glibc's allocator asks for huge pages only
/// when its tunable says so, and tunables are read at startup.

/// Sets the tunable in the environment, for a program this process is about to exec anyway (the
/// desktop program): no restart needed. False if the user set GLIBC_TUNABLES or
/// REMAT_NO_HUGE_PAGES, or the kernel gives huge pages unasked or never.
bool setHugePageTunable();

/// Whether a headless command allocates enough for huge pages to repay a restart (about a
/// millisecond): a sweep or benchmark, or an input file of several MiB.
bool worthRestartingForHugePages(const std::vector<std::string>& args);

/// Sets the tunable and starts this program again, once. Does nothing when setHugePageTunable()
/// declines or exec fails.
void restartWithHugePageAllocator(char** argv);

} // namespace remat
