// SPDX-License-Identifier: MIT
#pragma once

namespace remat {

/// Loading and partitioning a large graph touches tens of thousands of fresh 4 KiB pages, and on
/// a VM each page fault is dear (gpt_n96: 13.5k faults, half of a cold 60 ms run). With the
/// kernel's transparent huge pages in "madvise" mode, glibc's allocator asks for huge pages only
/// when its tunable says so, and tunables are read at startup: so set it and start again, once.
/// Does nothing if the user set GLIBC_TUNABLES, set REMAT_NO_HUGE_PAGES, or exec fails.
void restartWithHugePageAllocator(char** argv);

} // namespace remat
