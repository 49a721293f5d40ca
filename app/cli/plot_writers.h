// SPDX-License-Identifier: MIT
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace remat {
class BudgetSession;
class JointGraph;
struct MemoryProfile;
struct ParetoResult;
} // namespace remat

namespace remat::cli {

/// Pictures need Qt, which the commands do not: the desktop build installs these writers at
/// start-up, a headless build (-DREMAT_BUILD_GUI=OFF) leaves them empty and `--plot` says so.
/// Each writes PNG, SVG or PDF by the path's suffix and throws remat::Error when it cannot.
struct PlotWriters {
    std::function<void(const BudgetSession&, const ParetoResult&, const std::string& path)> pareto;
    /// `planName` completes the title "memory of …": "the plan at memory budget 0.25", "plan.json".
    std::function<void(
        const JointGraph&, const MemoryProfile&, const std::string& planName, const std::string& path)>
        timeline;
};

void installPlotWriters(PlotWriters writers);
/// The installed writers; throws remat::Error when this build has none.
const PlotWriters& plotWriters();
/// Throws remat::Error unless `path` names a picture the writers can draw (.png, .svg, .pdf), so
/// that a command fails before its work rather than after it.
void checkPictureType(const std::string& path);

} // namespace remat::cli
