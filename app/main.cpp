// SPDX-License-Identifier: MIT
// The command line: headless subcommands run here on std + core, so they start fast and need no
// display; anything with a window or a picture is handed over to the desktop program.
#include "cli/command_arena.h"
#include "cli/commands.h"
#include "cli/huge_pages.h"
#include "desktop_program.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

namespace {

/// Below this an input's pages cost no more than zeroing huge pages (gpt_n2, 114 KiB, breaks even).
constexpr std::uintmax_t kLargeInputBytes = 256u << 10;

/// The command arena's size: small blocks take about as many bytes as the input (gpt_n48: 2.6 MB
/// for 2.9 MB), and a command that needs more goes on with malloc. A whole number of huge pages,
/// so that the blocks after it, the file's text first, start on a page of their own: a region
/// ending mid-page left gpt_n48 a huge page more to clear, about as much as the arena saves.
std::size_t commandArenaBytes(std::uintmax_t inputBytes)
{
    constexpr std::uintmax_t kHugePage = std::uintmax_t {2} << 20;
    constexpr std::uintmax_t kLargest = std::uintmax_t {1} << 30;
    const std::uintmax_t wanted = std::min(2 * inputBytes, kLargest);
    return static_cast<std::size_t>((wanted + kHugePage - 1) / kHugePage * kHugePage);
}

/// "remat-explorer partiton g.json": neither a command nor a file, so a typo, not a graph to open.
bool looksLikeMistypedCommand(const char* arg)
{
    std::error_code ec;
    return arg[0] != '-' && !std::filesystem::exists(arg, ec)
        && std::string_view(arg).find('.') == std::string_view::npos;
}

/// Ends a headless command without running destructors: freeing the loaded graph and the
/// parser's buffers page by page costs more than partitioning a 10k-node graph, and the kernel
/// takes the memory back at once. Sanitizer builds return normally, so that leaks still show.
int endCommand(int status)
{
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    return status;
#else
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    std::_Exit(status);
#endif
}

} // namespace

int main(int argc, char** argv)
{
    const std::vector<std::string> args(argv + 1, argv + argc);
    if (!args.empty() && !remat::drawsPictures(args)
        && (remat::cli::isCommand(argv[1]) || looksLikeMistypedCommand(argv[1]))) {
        if (remat::worthRestartingForHugePages(args))
            remat::restartWithHugePageAllocator(argv);
        else if (const auto bytes = remat::largestInputBytes(args); bytes >= kLargeInputBytes) {
            remat::useHugePageHeap(bytes); // first, so that the arena is on huge pages too
            remat::command_arena::start(commandArenaBytes(bytes));
        }
        return endCommand(remat::cli::run(args, std::cout, std::cerr));
    }
    return remat::runDesktopProgram(argv);
}
