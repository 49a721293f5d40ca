// SPDX-License-Identifier: MIT
// One binary, two modes: a headless subcommand (no display needed), or the desktop app.
#include "cli/commands.h"
#include "gui_entry.h"
#include "huge_pages.h"
#include "layout/layout_worker.h"

#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

namespace {

/// "remat-explorer partiton g.json": neither a command nor a file, so a typo, not a graph to open.
bool looksLikeMistypedCommand(const char* arg)
{
    std::error_code ec;
    return arg[0] != '-' && !std::filesystem::exists(arg, ec)
        && std::string_view(arg).find('.') == std::string_view::npos;
}

} // namespace

int main(int argc, char** argv)
{
    // The hidden layout worker mode (Graphviz in a child the app can kill) starts before anything else.
    if (int code = 0; remat::ui::serveLayoutWorker(argc, argv, code))
        return code;
    remat::restartWithHugePageAllocator(argv);
    if (argc >= 2 && std::string_view(argv[1]) == "render")
        return remat::ui::runRender(argc, argv);
    if (argc >= 2 && (remat::cli::isCommand(argv[1]) || looksLikeMistypedCommand(argv[1]))) {
        const std::vector<std::string> args(argv + 1, argv + argc);
        remat::ui::installCommandPlotWriters();
        return remat::cli::run(args, std::cout, std::cerr);
    }
    return remat::ui::runGui(argc, argv);
}
