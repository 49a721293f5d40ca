// SPDX-License-Identifier: MIT
#include "window/scripted_tagging.h"

#include "document/graph_document.h"
#include "document/node_selection.h"
#include "model/policy_names.h"
#include "window/main_window.h"

#include <cstdio>

namespace remat::ui {

ScriptedTagging::ScriptedTagging(MainWindow* window, QStringList specs, int delayMs)
    : QObject(window)
    , m_window(window)
    , m_specs(std::move(specs))
{
    m_timer.setInterval(delayMs);
    connect(&m_timer, &QTimer::timeout, this, &ScriptedTagging::tagNext);
    connect(window, &MainWindow::graphOpened, this, [this] {
        if (!m_specs.isEmpty())
            m_timer.start();
    });
}

void ScriptedTagging::tagNext()
{
    if (m_specs.isEmpty()) {
        m_timer.stop();
        return;
    }
    const QString spec = m_specs.takeFirst();
    const QString name = spec.section(QLatin1Char('='), 0, 0);
    const auto policy = parsePolicy(spec.section(QLatin1Char('='), 1));
    const LoadedGraphPtr graph = m_window->document()->graph();
    const NodeId n = graph ? graph->graph.find(name.toStdString()) : kNoNode;
    if (n == kNoNode || !policy) {
        std::fprintf(stderr, "remat-explorer: --tag %s: no such node or policy\n", qPrintable(spec));
        m_specs.clear();
        return;
    }
    m_window->selection()->selectNode(n, NodeSelection::Origin::Search);
    m_window->tagSelection(*policy == CheckpointPolicy::None ? std::nullopt : std::optional(*policy));
    std::printf("tagged %s %s\n", qPrintable(name), policyName(*policy));
    std::fflush(stdout);
}

} // namespace remat::ui
