// SPDX-License-Identifier: MIT
// The command line: headless subcommands run here on std + core, so they start fast and need no
// display; anything with a window or a picture is handed over to the desktop program.
#include "cli/commands.h"
#include "cli/huge_pages.h"
#include "desktop_program.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

namespace {

/// Below this an input's pages cost no more than zeroing huge pages (gpt_n2, 114 KiB, breaks even).
constexpr std::uintmax_t kLargeInputBytes = 256u << 10;

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
        else if (const auto bytes = remat::largestInputBytes(args); bytes >= kLargeInputBytes)
            remat::useHugePageHeap(bytes);
        return endCommand(remat::cli::run(args, std::cout, std::cerr));
    }
    return remat::runDesktopProgram(argv);
}
