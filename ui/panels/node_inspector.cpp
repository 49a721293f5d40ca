// SPDX-License-Identifier: MIT
#include "panels/node_inspector.h"

#include "canvas/graph_scene.h"
#include "document/graph_document.h"
#include "document/node_selection.h"
#include "panels/node_report.h"
#include "panels/what_if_report.h"
#include "window/guide_window.h"

#include <QScrollBar>

namespace remat::ui {

NodeInspector::NodeInspector(GraphDocument* document, GraphScene* scene, NodeSelection* selection,
    PlanAnalyst* analyst, QWidget* parent)
    : QTextBrowser(parent)
    , m_document(document)
    , m_scene(scene)
    , m_selection(selection)
    , m_analyst(analyst)
{
    setOpenLinks(false);
    setFrameShape(QFrame::NoFrame);
    connect(this, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
        if (url.scheme() == QLatin1String("node"))
            m_selection->selectNode(url.path().toInt(), NodeSelection::Origin::Program);
        else if (url.scheme() == QLatin1String("glossary"))
            showGuideTopic(this, url.path());
        else if (url.scheme() == QLatin1String("apply"))
            applyFlip();
        else if (url.scheme() == QLatin1String("flash") && m_analysis)
            m_scene->flashNodes(m_analysis->whatIf.changedNodes);
    });
    connect(m_analyst, &PlanAnalyst::nodeAnalysed, this, &NodeInspector::onAnalysed);
    m_refreshTimer.setSingleShot(true);
    m_refreshTimer.setInterval(0);
    connect(&m_refreshTimer, &QTimer::timeout, this, &NodeInspector::refresh);
    connect(m_selection, &NodeSelection::changed, this, &NodeInspector::refresh);
    // The scene's paint state is what the report reads: refresh whenever it changes.
    connect(m_scene, &GraphScene::appearanceChanged, this, &NodeInspector::scheduleRefresh);
    connect(m_document, &GraphDocument::graphChanged, this, [this] {
        m_analysis.reset();
        m_requested.reset();
        m_requestedNode = kNoNode;
        scheduleRefresh();
    });
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
        m_reportHtml = nodeReport(state, n);
        // A failed partition is explained once, as the decision's reason: the what-if would only
        // repeat it.
        const bool failed = state.outcome && !state.outcome->ok();
        if (!failed)
            requestAnalysis(n);
        // The what-if goes right under the decision and its reason, before the node's facts.
        const QString whatIf = failed
            ? tr("<h3>What if</h3><p>Nothing to try while the graph does not partition.</p>")
            : m_analysis ? whatIfReport(*state.graph, *m_analysis)
                         : tr("<h3>What if</h3><p><i>Working it out…</i></p>");
        const qsizetype facts = m_reportHtml.indexOf(QLatin1String("<table"));
        setHtml(facts < 0 ? m_reportHtml + whatIf : QString(m_reportHtml).insert(facts, whatIf));
    } else if (const int g = m_selection->currentGroup(); g >= 0) {
        setHtml(groupReport(state, g));
    } else {
        setHtml(emptyReport(state.graph.get()));
    }
    verticalScrollBar()->setValue(scroll);
}

void NodeInspector::requestAnalysis(NodeId n)
{
    if (!m_document->graph() || !m_document->outcome())
        return;
    const PlanRequest request = PlanAnalyst::requestFor(
        m_document->partitionOptions(), m_document->budgetMode(), m_document->budgetSettings());
    if (n == m_requestedNode && m_requested && samePlanRequest(*m_requested, request))
        return; // asked already: the answer is shown or on its way
    m_analysis.reset();
    m_requested = request;
    m_requestedNode = n;
    m_analyst->analyseNode(request, n);
}

void NodeInspector::onAnalysed(const NodeAnalysisPtr& analysis)
{
    if (analysis->node != m_selection->currentNode())
        return;
    m_analysis = analysis;
    refresh();
    if (!analysis->whatIf.changedNodes.empty())
        m_scene->flashNodes(analysis->whatIf.changedNodes);
    Q_EMIT analysisShown();
}

void NodeInspector::applyFlip()
{
    if (!m_analysis || !m_analysis->whatIf.flipTag)
        return;
    m_document->tagNodes({m_analysis->whatIf.flipNode}, *m_analysis->whatIf.flipTag);
}

} // namespace remat::ui
