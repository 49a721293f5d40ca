// SPDX-License-Identifier: MIT
// --screenshot, continued: the steps that put the pictures of a plan on screen for review
// (--compare, --step, --dock, --teach).
#include "analysis/plan_analyst.h"
#include "document/graph_document.h"
#include "panels/compare_panel.h"
#include "panels/plan_choice_editor.h"
#include "panels/timeline_panel.h"
#include "plots/timeline_plot.h"
#include "teaching/teaching_window.h"
#include "window/headless_session.h"
#include "window/main_window.h"
#include "window/plan_choice_argument.h"

#include <QCoreApplication>
#include <QDockWidget>

namespace remat::ui {
namespace {

void raiseDock(MainWindow* window, const QString& objectName)
{
    if (auto* dock = window->findChild<QDockWidget*>(objectName)) {
        dock->show();
        dock->raise();
        // A raised tab hears it is shown through events: let them in now, so that the work it
        // starts (a comparison, a split) counts as busy before the next step looks.
        QCoreApplication::processEvents();
    }
}

} // namespace

void HeadlessSession::queueReviewSteps()
{
    if (!m_options.compare.isEmpty()) {
        then([this] {
            raiseDock(m_window, QStringLiteral("CompareDock"));
            QString error;
            const auto choice = planChoiceFromArgument(m_options.compare, error);
            if (!choice) { // checked with the options; a plan file may have gone since
                fail(error);
                return;
            }
            m_window->comparePanel()->sideB()->setChoice(*choice);
            m_window->comparePanel()->compareNow();
        });
    }
    if (!m_options.step.isEmpty()) {
        then([this] {
            raiseDock(m_window, QStringLiteral("TimelineDock"));
            const PlanProfilePtr profile = m_window->timelinePanel()->plot()->profile();
            if (!profile || !profile->ok()) {
                fail(QStringLiteral("--step: the plan has no memory timeline"));
                return;
            }
            bool number = false;
            const int step = m_options.step == QLatin1String("peak") ? profile->profile.peakStep
                                                                     : m_options.step.toInt(&number);
            if (m_options.step != QLatin1String("peak")
                && (!number || step < 0 || step >= static_cast<int>(profile->profile.timeline.size()))) {
                fail(QStringLiteral("--step %1: not a step of this timeline (0-%2, or peak)")
                         .arg(m_options.step)
                         .arg(profile->profile.timeline.size() - 1));
                return;
            }
            m_window->timelinePanel()->showStep(step);
        });
    }
    if (!m_options.dock.isEmpty()) {
        then([this] {
            static const QHash<QString, QString> docks {
                {QStringLiteral("trade-off"), QStringLiteral("ParetoDock")},
                {QStringLiteral("timeline"), QStringLiteral("TimelineDock")},
                {QStringLiteral("compare"), QStringLiteral("CompareDock")},
                {QStringLiteral("inspector"), QStringLiteral("InspectorDock")},
                {QStringLiteral("devices"), QStringLiteral("DevicesDock")}};
            if (!docks.contains(m_options.dock)) {
                fail(QStringLiteral("--dock %1: one of trade-off, timeline, compare, inspector, devices")
                         .arg(m_options.dock));
                return;
            }
            raiseDock(m_window, docks.value(m_options.dock));
        });
    }
    if (m_options.teach) {
        then([this] {
            TeachingWindow* teaching = m_window->showTeaching();
            teaching->resize(m_options.windowSize);
            m_shotWidget = teaching;
        });
        then([this] {
            auto* teaching = static_cast<TeachingWindow*>(m_shotWidget);
            if (!teaching->lesson() || !teaching->lesson()->error.isEmpty()) {
                fail(QStringLiteral("--teach: %1")
                         .arg(teaching->lesson() ? teaching->lesson()->error : QStringLiteral("no lesson")));
                return;
            }
            teaching->showStep(*m_options.teach - 1);
        });
    }
}

} // namespace remat::ui
