// SPDX-License-Identifier: MIT
#include "cli/plot_writers.h"

#include "graph/error.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <string_view>

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

void checkPictureType(const std::string& path)
{
    const std::size_t dot = path.find_last_of('.');
    const std::size_t slash = path.find_last_of('/');
    std::string suffix
        = dot == std::string::npos || (slash != std::string::npos && dot < slash) ? "" : path.substr(dot + 1);
    std::transform(suffix.begin(), suffix.end(), suffix.begin(),
        [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    constexpr std::array<std::string_view, 3> kKnown {"png", "svg", "pdf"};
    if (std::find(kKnown.begin(), kKnown.end(), suffix) == kKnown.end())
        throw Error(path + ": unknown picture type '." + suffix + "' (use .png, .svg or .pdf)");
}

} // namespace remat::cli
