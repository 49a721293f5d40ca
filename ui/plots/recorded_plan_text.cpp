// SPDX-License-Identifier: MIT
#include "plots/recorded_plan_text.h"

#include "model/budget_text.h"
#include "model/node_text.h"

#include <QCoreApplication>

namespace remat::ui {

QString describeRecordedPlan(const ParetoSnapshot::Recorded& plan, std::string_view runtimeUnit)
{
    const auto tr = [](const char* text) { return QCoreApplication::translate("ParetoPlot", text); };
    const QString ours = plan.sameAsOurs
        ? tr("our plan at %1 saves the same values").arg(plan.budget)
        : tr("our plan at %1 differs: %2 saved only by PyTorch, %3 only by ours")
              .arg(plan.budget)
              .arg(plan.savedOnlyByPyTorch)
              .arg(plan.savedOnlyByOurs);
    return tr("<b>PyTorch's recorded %1</b><br>activations %2<br>simulated peak %3<br>estimated recompute "
              "%4<br>%5 saved<br><i>%6</i>")
        .arg(plan.key.toHtmlEscaped(), formatBytes(plan.metrics.activationBytes),
            plan.metrics.peakBytes ? formatBytes(*plan.metrics.peakBytes) : tr("not simulated"),
            formatRuntime(plan.metrics.estimatedRuntime, runtimeUnit))
        .arg(plan.savedCount)
        .arg(ours);
}

} // namespace remat::ui
