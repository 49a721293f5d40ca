// SPDX-License-Identifier: MIT
// The desktop program (lib/remat-explorer/remat-explorer-gui): the window, its headless runs
// (--screenshot, --export-*, render), the commands that draw --plot pictures, and the Graphviz
// layout worker. bin/remat-explorer hands these runs over with the same arguments.
#include "cli/commands.h"
#include "gui_entry.h"
#include "layout/layout_worker.h"

#include <iostream>
#include <string>
#include <vector>

int main(int argc, char** argv)
{
    // The hidden layout worker mode (Graphviz in a child the app can kill) starts before anything else.
    if (int code = 0; remat::ui::serveLayoutWorker(argc, argv, code))
        return code;
    if (argc >= 2 && std::string_view(argv[1]) == "render")
        return remat::ui::runRender(argc, argv);
    if (argc >= 2 && remat::cli::isCommand(argv[1])) {
        const std::vector<std::string> args(argv + 1, argv + argc);
        remat::ui::installCommandPlotWriters();
        return remat::cli::run(args, std::cout, std::cerr);
    }
    return remat::ui::runGui(argc, argv);
}
