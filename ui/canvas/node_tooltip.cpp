// SPDX-License-Identifier: MIT
#include "canvas/node_tooltip.h"

#include <QObject>
#include <QStringList>

#include "model/decision_text.h"
#include "model/node_text.h"
#include "model/policy_names.h"

namespace remat::ui {

QString nodeToolTip(const CanvasState& state, NodeId n)
{
    const LoadedGraph& g = *state.graph;
    const NodeLabel& label = g.label(n);
    QString html = QStringLiteral("<b>%1</b> &nbsp;<code>%2</code><br>")
                       .arg(label.name.toHtmlEscaped(), label.op.toHtmlEscaped());
    if (!label.value.isEmpty())
        html += QStringLiteral("%1 &nbsp;·&nbsp; %2<br>").arg(label.value.toHtmlEscaped(), label.size);
    html += QObject::tr("Region: %1<br>").arg(QLatin1String(regionName(g.region(n))));
    html += QObject::tr("Decision: <b>%1</b>")
                .arg(decisionHeadline(g, state.outcome.get(), n).toHtmlEscaped());
    const CheckpointPolicy tag = state.tag(n);
    if (tag != CheckpointPolicy::None)
        html += QObject::tr("<br>Tag: %1").arg(QLatin1String(policyName(tag)));
    const QString reason = decisionReason(g, state.outcome.get(), n);
    if (!reason.isEmpty())
        html += QStringLiteral("<br><i>%1</i>").arg(reason.toHtmlEscaped());
    return QStringLiteral("<p style='white-space:pre-wrap; max-width:420px'>%1</p>").arg(html);
}

QString groupToolTip(const CanvasState& state, int group)
{
    const Group& g = state.graph->groups.group(group);
    const GroupStats s = static_cast<std::size_t>(group) < state.groupStats.size()
        ? state.groupStats[static_cast<std::size_t>(group)]
        : GroupStats {};
    QString html = QObject::tr("<b>%1</b> (%2)<br>%3 nodes")
                       .arg(g.label.toHtmlEscaped(),
                           g.side == Side::Forward ? QObject::tr("forward") : QObject::tr("backward"))
                       .arg(s.nodes);
    html += QObject::tr("<br>%1 saved (%2), %3 recomputed, %4 banned from recomputation")
                .arg(s.saved)
                .arg(formatBytes(s.savedBytes))
                .arg(s.recomputed)
                .arg(s.banned);
    if (s.tagged > 0)
        html += QObject::tr("<br>%1 tagged").arg(s.tagged);
    if (state.showsReference() && s.referenceOnly > 0)
        html += QObject::tr("<br>%1 saved only by PyTorch's reference").arg(s.referenceOnly);
    if (!g.children.empty())
        html += QObject::tr("<br>%1 sub-groups").arg(g.children.size());
    html += QObject::tr("<br><i>Double-click to expand.</i>");
    return html;
}

QString edgeToolTip(const CanvasState& state, int viewEdge)
{
    const ViewEdge& e = state.view->edges[static_cast<std::size_t>(viewEdge)];
    const LoadedGraph& g = *state.graph;
    int saved = 0;
    std::int64_t savedBytes = 0;
    for (NodeId n : e.sources) {
        if (state.flags(n) & Saved) {
            ++saved;
            savedBytes += g.bytesOf(n);
        }
    }
    QString html;
    if (e.sources.size() == 1)
        html = QObject::tr("value <b>%1</b>").arg(g.label(e.sources.front()).name.toHtmlEscaped());
    else
        html = QObject::tr("%1 values over %2 edges").arg(e.sources.size()).arg(e.count);
    if (e.role == EdgeRole::Across)
        html += QObject::tr("<br>forward → backward: %1 saved (%2)").arg(saved).arg(formatBytes(savedBytes));
    return html;
}

} // namespace remat::ui
