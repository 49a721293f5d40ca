// SPDX-License-Identifier: MIT
#include "cli/plot_writers.h"

#include "graph/error.h"

namespace remat::cli {
namespace {

PlotWriters& installed()
{
    static PlotWriters writers;
    return writers;
}

} // namespace

void installPlotWriters(PlotWriters writers)
{
    installed() = std::move(writers);
}

const PlotWriters& plotWriters()
{
    if (!installed().pareto || !installed().timeline)
        throw Error("--plot: this build draws no pictures (configured with REMAT_BUILD_GUI=OFF)");
    return installed();
}

} // namespace remat::cli
