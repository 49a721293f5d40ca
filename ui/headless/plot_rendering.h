// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

namespace remat {
class BudgetSession;
class JointGraph;
struct MemoryProfile;
struct ParetoResult;
} // namespace remat

namespace remat::ui {

/// The plots of the docks, drawn without a window for `pareto --plot` and `memory --plot`: PNG,
/// SVG or PDF by the path's suffix, written atomically. A QApplication on the offscreen platform
/// is created when there is none. Each returns an empty string, or what went wrong.
QString renderParetoPlot(const BudgetSession& session, const ParetoResult& result, const QString& path);
QString renderTimelinePlot(
    const JointGraph& graph, const MemoryProfile& profile, const QString& planName, const QString& path);

} // namespace remat::ui
