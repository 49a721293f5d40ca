// SPDX-License-Identifier: MIT
// One binary, two modes: a headless subcommand (no display needed), or the desktop app.
#include "cli/commands.h"
#include "gui_entry.h"

#include <iostream>
#include <string>
#include <vector>

int main(int argc, char** argv)
{
    if (argc >= 2 && remat::cli::isCommand(argv[1])) {
        const std::vector<std::string> args(argv + 1, argv + argc);
        return remat::cli::run(args, std::cout, std::cerr);
    }
    return remat::ui::runGui(argc, argv);
}
