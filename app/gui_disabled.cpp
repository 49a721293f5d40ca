// SPDX-License-Identifier: MIT
// Stands in for the desktop app when it was not built (-DREMAT_BUILD_GUI=OFF).
#include "gui_entry.h"
#include "layout/layout_worker.h"

#include <iostream>

namespace remat::ui {

int runGui(int, char**)
{
    std::cerr << "remat-explorer: this build has no desktop app (configured with REMAT_BUILD_GUI=OFF); "
                 "run 'remat-explorer help' for the headless commands\n";
    return 2;
}

void installCommandPlotWriters() {}

int runRender(int argc, char** argv)
{
    return runGui(argc, argv);
}

bool serveLayoutWorker(int, char**, int&)
{
    return false; // no Graphviz in this build
}

} // namespace remat::ui
