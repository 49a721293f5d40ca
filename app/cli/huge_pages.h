// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace remat {

/// Loading and partitioning a large graph touches tens of thousands of fresh 4 KiB pages, and on
/// a VM each page fault is dear (gpt_n48: 7k faults, most of a 27 ms run). With the kernel's
/// transparent huge pages in "madvise" mode, memory gets huge pages only when asked for.

/// Sets glibc's tunable in the environment, for a program this process is about to exec anyway
/// (the desktop program): no restart needed. False if the user set GLIBC_TUNABLES or
/// REMAT_NO_HUGE_PAGES, or the kernel gives huge pages unasked or never.
bool setHugePageTunable();

/// Whether a headless command runs long enough on several threads (a sweep or a benchmark) for a
/// restart with the tunable, which reaches every thread's heap, to pay (about a millisecond).
bool worthRestartingForHugePages(const std::vector<std::string>& args);

/// Sets the tunable and starts this program again, once. Does nothing when setHugePageTunable()
/// declines or exec fails.
void restartWithHugePageAllocator(char** argv);

/// The largest input file among the arguments, in bytes (0 when none is a file).
std::uintmax_t largestInputBytes(const std::vector<std::string>& args);

/// For a single-threaded command on a large input, without a restart: grows the main heap once,
/// far enough for everything the command allocates from an input of `inputBytes`, and asks for
/// huge pages on it. Declines (false) where setHugePageTunable() would, and in sanitizer builds.
bool useHugePageHeap(std::uintmax_t inputBytes);

} // namespace remat
