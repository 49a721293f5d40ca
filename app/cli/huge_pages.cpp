// SPDX-License-Identifier: MIT
#include "cli/huge_pages.h"

#include "cli/child_environment.h"

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <malloc.h>
#include <string_view>
#include <sys/mman.h>
#include <unistd.h>

namespace remat {
namespace {

constexpr std::uintptr_t kHugePageBytes = 2u << 20;
/// The largest block glibc's allocator will still carve from the heap instead of mapping alone.
constexpr int kLargestHeapBlock = 32 << 20;
/// A headless command touches about ten times its input's size (gpt_n48: 27 MiB for 2.9 MiB).
constexpr std::uintmax_t kHeapPerInputByte = 32;
constexpr std::uintmax_t kSmallestHeap = 64u << 20;
constexpr std::uintptr_t kProbeBytes = 1u << 20;
constexpr std::uintptr_t kChunkHeaderBytes = 64; // more than glibc's 16

/// The heap's start, below its first huge page, is held by a block nobody uses. Volatile: a block
/// that is never read nor freed is otherwise dropped by the compiler (GCC 12 did, and the graph
/// file's text then went to small pages: 500 more page faults on gpt_n48).
void* volatile g_smallPageStart = nullptr;

/// Read with open and read: a std::ifstream here took 0.03 ms of `partition` (gpt_n48).
bool transparentHugePagesOnRequest()
{
    const int fd = open("/sys/kernel/mm/transparent_hugepage/enabled", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    char text[128];
    const ssize_t got = read(fd, text, sizeof text - 1);
    close(fd);
    return got > 0
        && std::string_view(text, static_cast<std::size_t>(got)).find("[madvise]") != std::string_view::npos;
}

bool hugePagesWanted()
{
    return !std::getenv("GLIBC_TUNABLES") && !std::getenv("REMAT_NO_HUGE_PAGES")
        && transparentHugePagesOnRequest();
}

} // namespace

bool setHugePageTunable()
{
    if (!hugePagesWanted())
        return false;
    // The marker keeps a restarted process (or a child that inherits it) from restarting again.
    return setenv("GLIBC_TUNABLES", "glibc.malloc.hugetlb=1", 0) == 0
        && setenv("REMAT_NO_HUGE_PAGES", cli::kHugePageRestartMarker, 0) == 0;
}

bool worthRestartingForHugePages(const std::vector<std::string>& args)
{
    return !args.empty() && (args[0] == "bench" || args[0] == "pareto");
}

void restartWithHugePageAllocator(char** argv)
{
    if (!setHugePageTunable())
        return;
    execv("/proc/self/exe", argv);
    // exec failed: carry on with ordinary pages.
    unsetenv("GLIBC_TUNABLES");
}

std::uintmax_t largestInputBytes(const std::vector<std::string>& args)
{
    std::uintmax_t largest = 0;
    for (const std::string& arg : args) {
        std::error_code ec;
        if (!arg.starts_with('-')) {
            const auto size = std::filesystem::file_size(arg, ec);
            if (!ec)
                largest = std::max(largest, size);
        }
    }
    return largest;
}

bool useHugePageHeap(std::uintmax_t inputBytes)
{
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    (void)inputBytes;
    return false; // the sanitizers' allocators have no such heap
#else
    if (!hugePagesWanted())
        return false;
    const auto heapBytes
        = std::min<std::uintmax_t>(std::max(kSmallestHeap, kHeapPerInputByte * inputBytes), 1u << 30);
    // Blocks come from the heap rather than mappings of their own, the heap grows in one step and
    // never shrinks (the command ends with _Exit, nothing is given back anyway).
    // One arena: another thread's blocks come from this heap too, not from an arena of its own
    // on small pages (the reader parses half of a large file on another core: 3 ms slower there).
    if (mallopt(M_ARENA_MAX, 1) == 0 || mallopt(M_MMAP_THRESHOLD, kLargestHeapBlock) == 0
        || mallopt(M_TRIM_THRESHOLD, INT_MAX) == 0 || mallopt(M_TOP_PAD, static_cast<int>(heapBytes)) == 0)
        return false;
    void* probe = std::malloc(kProbeBytes); // more than the heap has left: it grows by M_TOP_PAD
    if (!probe)
        return false;
    const auto start = reinterpret_cast<std::uintptr_t>(probe);
    // malloc wrote the header of the free space past the probe before the madvise: that page is
    // small, and so would be the rest of its 2 MiB (500 page faults on gpt_n48 every other run).
    const auto first = (start + kProbeBytes + kChunkHeaderBytes + kHugePageBytes - 1) & ~(kHugePageBytes - 1);
    const auto end = reinterpret_cast<std::uintptr_t>(sbrk(0)) & ~(kHugePageBytes - 1);
    std::free(probe);
    if (end <= first || madvise(reinterpret_cast<void*>(first), end - first, MADV_HUGEPAGE) != 0)
        return false;
    // Below `first` the heap keeps small pages: a block that is never touched (nor freed) takes
    // that part, so that what the command allocates starts on huge pages.
    g_smallPageStart = std::malloc(first - start);
    return true;
#endif
}

} // namespace remat
