// SPDX-License-Identifier: MIT
#pragma once

#include <QSize>
#include <QStringList>

#include <optional>

class QCoreApplication;

namespace remat::ui {

/// What the desktop app was asked to do on its command line.
struct GuiOptions {
    QString graph; ///< empty: the bundled sample
    QString traceGraph; ///< of a TORCH_TRACE log with several graphs, the one to open (0/0, 1/0)
    QString screenshot; ///< render the window to this PNG and exit
    QString zoom; ///< "fit" (default), a factor ("0.5"), or empty
    QString select; ///< node to select and centre on
    QStringList tags; ///< "NAME=POLICY": headless, applied before the screenshot (not saved);
                      ///< in a window, applied as the user's edits (saved), tagDelayMs apart
    int tagDelayMs = 0;
    QString restore
        = QStringLiteral("ask"); ///< a crashed session's work: "ask", "yes" (restore) or "no" (discard)
    bool activationOffloading = false; ///< torch 2.x's enable_activation_offloading
    QString expand; ///< "all", or a group label to expand
    QSize windowSize {1600, 1000};
    bool measure = false; ///< print open / first picture / re-partition timings and exit
    int measureRepeats = 10;

    // Partitioner settings applied before the screenshot and the exports (not saved).
    QString partitioner; ///< "min-cut", "default" or "budget"; empty: as the project file says
    QString rules; ///< "torch-1.13" or "newest"; empty: unchanged
    QString inductorPasses; ///< "on", "off" or "auto" (JointPassReplay); empty: unchanged
    std::optional<double> budget; ///< implies the budget partitioner
    QString solver; ///< dp, greedy, ilp, dp_knapsack_sliding_hirschberg
    QString estimator; ///< flops, testing, roofline (implied by device)
    QString device; ///< roofline device profile name

    // Headless exports, written once partitioned and laid out.
    QString exportPlan; ///< plan JSON
    QString exportScript; ///< Python script running the plan (the plan goes beside it unless exportPlan)
    QString exportImage; ///< canvas picture, PNG, SVG or PDF by suffix
    QString plan; ///< a plan file shown instead of the partitioner's decision

    // Reviewing the pictures headless (with --screenshot).
    QString dock; ///< raise this dock: trade-off, timeline, compare, inspector
    QString
        compare; ///< the Compare dock's plan B: pytorch, budget=B, other-rules, without-tags, or a plan file
    QString step; ///< click this step of the memory timeline ("peak" or a number)
    std::optional<int> teach; ///< open the teaching view at this step (1-5) and screenshot it instead
    QString tools; ///< folder with apply_plan.py; default: the source tree's samples

    /// Anything to do without a user (screenshot, measure, exports).
    bool headless() const
    {
        return !screenshot.isEmpty() || measure || !exportPlan.isEmpty() || !exportScript.isEmpty()
            || !exportImage.isEmpty();
    }
    /// The raw arguments ask for a headless run (decided before any QApplication exists, so that
    /// such runs can pick the offscreen platform by themselves).
    static bool headlessArguments(int argc, char** argv);
};

/// Parses the arguments; on --help/--version/errors prints and returns the exit code in `exitCode`.
bool parseGuiOptions(const QCoreApplication& app, GuiOptions& options, int& exitCode);

} // namespace remat::ui
