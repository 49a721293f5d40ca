// SPDX-License-Identifier: MIT
#include "panels/node_inspector.h"

#include "canvas/graph_scene.h"
#include "document/graph_document.h"
#include "document/node_selection.h"
#include "panels/node_report.h"

#include <QScrollBar>

namespace remat::ui {

NodeInspector::NodeInspector(GraphDocument* document, GraphScene* scene, NodeSelection* selection, QWidget* parent)
    : QTextBrowser(parent)
    , m_document(document)
    , m_scene(scene)
    , m_selection(selection)
{
    setOpenLinks(false);
    setFrameShape(QFrame::NoFrame);
    connect(this, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
        if (url.scheme() == QLatin1String("node"))
            m_selection->selectNode(url.path().toInt(), NodeSelection::Origin::Program);
    });
    m_refreshTimer.setSingleShot(true);
    m_refreshTimer.setInterval(0);
    connect(&m_refreshTimer, &QTimer::timeout, this, &NodeInspector::refresh);
    connect(m_selection, &NodeSelection::changed, this, &NodeInspector::refresh);
    // The scene's paint state is what the report reads: refresh whenever it changes.
    connect(m_scene, &GraphScene::appearanceChanged, this, &NodeInspector::scheduleRefresh);
    connect(m_document, &GraphDocument::graphChanged, this, &NodeInspector::scheduleRefresh);
    refresh();
}

void NodeInspector::scheduleRefresh()
{
    m_refreshTimer.start();
}

void NodeInspector::refresh()
{
    m_refreshTimer.stop();
    const CanvasState& state = m_scene->state();
    // Keep the scroll position when the same node is refreshed (a new partition), not otherwise.
    const auto shown = std::make_pair(m_selection->currentNode(), m_selection->currentGroup());
    const int scroll = shown == m_shown ? verticalScrollBar()->value() : 0;
    m_shown = shown;
    if (!state.graph) {
        setHtml(emptyReport(nullptr));
    } else if (const NodeId n = m_selection->currentNode(); n != kNoNode) {
        setHtml(nodeReport(state, n));
    } else if (const int g = m_selection->currentGroup(); g >= 0) {
        setHtml(groupReport(state, g));
    } else {
        setHtml(emptyReport(state.graph.get()));
    }
    verticalScrollBar()->setValue(scroll);
}

} // namespace remat::ui
