// SPDX-License-Identifier: MIT
#include "panels/node_report.h"

#include "model/decision_text.h"
#include "model/node_text.h"
#include "model/policy_names.h"
#include "model/stack_trace_text.h"

#include <QObject>
#include <QStringList>

#include <algorithm>

namespace remat::ui {
namespace {

QString link(const LoadedGraph& g, NodeId n)
{
    return QStringLiteral("<a href='node:%1'>%2</a>").arg(n).arg(g.label(n).name.toHtmlEscaped());
}

QString row(const QString& key, const QString& value)
{
    return QStringLiteral(
        "<tr><td style='color:#555; padding-right:10px; white-space:nowrap'>%1</td><td>%2</td></tr>")
        .arg(key, value);
}

QString pill(const QString& text, const QColor& colour)
{
    return QStringLiteral(
        "<span style='background-color:%1; color:white; font-weight:bold'>&nbsp;%2&nbsp;</span>")
        .arg(colour.name(), text.toHtmlEscaped());
}

QString dims(const std::vector<std::int64_t>& v)
{
    return shapeText(v).toHtmlEscaped();
}

QString nodeList(const LoadedGraph& g, const std::vector<NodeId>& nodes, std::size_t limit = 40)
{
    QStringList parts;
    for (std::size_t i = 0; i < nodes.size() && i < limit; ++i)
        parts << link(g, nodes[i]);
    if (nodes.size() > limit)
        parts << QObject::tr("… %1 more").arg(nodes.size() - limit);
    return parts.isEmpty() ? QObject::tr("<i>none</i>") : parts.join(QStringLiteral(", "));
}

QString weightText(std::int64_t w)
{
    if (w == PartitionResult::kInfiniteWeight)
        return QObject::tr("∞ (never cut here)");
    if (w == PartitionResult::kNoWeightEdge)
        return QObject::tr("no save edge");
    return QString::number(w);
}

} // namespace

QString nodeReport(const CanvasState& state, NodeId n)
{
    const LoadedGraph& g = *state.graph;
    const Node& node = g.graph.node(n);
    const NodeLabel& label = g.label(n);
    const PartitionOutcome* outcome = state.outcome.get();
    const auto flags = state.flags(n);
    const CanvasPalette& pal = state.palette;

    QString html = QStringLiteral("<h3 style='margin-bottom:2px'>%1</h3>").arg(label.name.toHtmlEscaped());
    html += QStringLiteral("<div><code>%1</code> · %2</div>")
                .arg(label.op.toHtmlEscaped(), QLatin1String(regionName(g.region(n))));

    // The decision first: it is what the user came for.
    QString decision = decisionHeadline(g, outcome, n);
    QColor colour = QColor(0x66, 0x66, 0x66);
    if (flags & Saved)
        colour = pal.saved;
    else if (flags & Recomputed)
        colour = pal.recomputed;
    html += QStringLiteral("<p>%1").arg(pill(decision, colour));
    if (flags & Banned)
        html += QStringLiteral(" ") + pill(QObject::tr("banned from recomputation"), pal.banned);
    html += QStringLiteral("</p>");
    const QString reason = decisionReason(g, outcome, n);
    if (!reason.isEmpty())
        html += QStringLiteral("<p>%1</p>").arg(reason.toHtmlEscaped());

    html += QStringLiteral("<table cellspacing='0' cellpadding='1'>");
    const bool userSet = static_cast<std::size_t>(n) < state.userTagged.size()
        && state.userTagged[static_cast<std::size_t>(n)];
    html += row(QObject::tr("Tag"), tagDescription(g, state.tag(n), userSet, outcome, n).toHtmlEscaped());

    // The value.
    if (node.valueKind == ValueKind::Tensor) {
        const TensorMeta& t = node.tensor();
        html += row(QObject::tr("Shape"), dims(t.shape));
        html += row(QObject::tr("Dtype"), QString::fromLatin1(dtypeName(t.dtype)));
        html += row(QObject::tr("Stride"), dims(t.stride));
        if (!t.device.empty())
            html += row(QObject::tr("Device"), QString::fromStdString(t.device).toHtmlEscaped());
        html += row(QObject::tr("Size"), QObject::tr("%1 (%2 bytes)").arg(label.size).arg(g.bytesOf(n)));
    } else if (node.valueKind == ValueKind::TensorList) {
        QStringList parts;
        for (const auto& v : node.values)
            parts << (v ? dims(v->shape) + QLatin1Char(' ') + QString::fromLatin1(dtypeName(v->dtype))
                        + QObject::tr(" stride ") + dims(v->stride)
                        : QStringLiteral("–"));
        html += row(QObject::tr("Values"), parts.join(QStringLiteral("<br>")));
        html += row(QObject::tr("Size"), label.size);
    }

    // The partitioner's view of the node.
    if (outcome && outcome->ok()) {
        const PartitionResult& r = *outcome->result;
        const auto i = static_cast<std::size_t>(n);
        if (i < r.classes.requiredFw.size()) {
            QString cls = r.classes.isRequiredFw(n) ? QStringLiteral("required_fw")
                : r.classes.isRequiredBw(n)         ? QStringLiteral("required_bw")
                                                    : QStringLiteral("unclaimed");
            html += row(QObject::tr("Class"), cls);
            const int d = r.classes.dist(n);
            html += row(QStringLiteral("dist_from_bw"),
                d >= NodeClasses::kFar ? QObject::tr("∞ (not needed by the backward)") : QString::number(d));
        }
        if (i < r.weights.size() && outcome->options.partitioner == PartitionerKind::MinCut)
            html += row(QObject::tr("Save-edge weight"), weightText(r.weights[i]));
        html += row(QObject::tr("In graphs"),
            QStringLiteral("%1%2").arg((flags & InForward) ? QObject::tr("forward ") : QString(),
                (flags & InBackward) ? QObject::tr("backward") : QString()));
        if (!outcome->referenceKey.isEmpty())
            html += row(QObject::tr("PyTorch (%1)").arg(outcome->referenceKey),
                (flags & ReferenceSaved) ? QObject::tr("saved") : QObject::tr("not saved"));
    }

    if (node.meta.acGraphId)
        html += row(QStringLiteral("ac_graph_id"), QString::number(*node.meta.acGraphId));
    html += QStringLiteral("</table>");

    // Where it sits, full width: module paths and source lines are long for the table's column.
    QStringList where;
    if (const int leaf = g.groups.leafGroup(n); leaf >= 0)
        where << QObject::tr("group %1").arg(g.groups.group(leaf).label.toHtmlEscaped());
    if (!node.meta.source->inputName.empty())
        where << QObject::tr("model input <code>%1</code>")
                     .arg(QString::fromStdString(node.meta.source->inputName).toHtmlEscaped());
    if (!node.meta.source->nnModuleStack.empty())
        where << QObject::tr("module %1")
                     .arg(QString::fromStdString(node.meta.source->nnModuleStack.back()).toHtmlEscaped());
    if (!node.meta.source->stackTrace.empty())
        where << stackTraceHtml(node.meta.source->stackTrace);
    if (!where.isEmpty())
        html += QObject::tr("<p><b>Where</b><br>%1</p>").arg(where.join(QStringLiteral("<br>")));

    const QString args = argumentsText(g.graph, n, [&g](NodeId ref) { return link(g, ref); });
    if (node.op != NodeOp::Placeholder)
        html += QObject::tr("<p><b>Call</b><br><code>%1(%2)</code></p>").arg(label.op.toHtmlEscaped(), args);
    html += QObject::tr("<p><b>Inputs</b> (%1)<br>%2</p>")
                .arg(node.inputs.size())
                .arg(nodeList(g, node.inputs));
    html += QObject::tr("<p><b>Users</b> (%1)<br>%2</p>").arg(node.users.size()).arg(nodeList(g, node.users));
    return html;
}

QString groupReport(const CanvasState& state, int group)
{
    const LoadedGraph& g = *state.graph;
    const Group& grp = g.groups.group(group);
    const GroupStats s = static_cast<std::size_t>(group) < state.groupStats.size()
        ? state.groupStats[static_cast<std::size_t>(group)]
        : GroupStats {};
    QString html = QStringLiteral("<h3 style='margin-bottom:2px'>%1</h3>").arg(grp.label.toHtmlEscaped());
    html += QObject::tr("<div>group of %1 nodes · %2</div>")
                .arg(grp.members.size())
                .arg(grp.side == Side::Forward ? QObject::tr("forward") : QObject::tr("backward"));
    html += QStringLiteral("<table cellspacing='0' cellpadding='1'>");
    html += row(QObject::tr("Saved"), QObject::tr("%1 (%2)").arg(s.saved).arg(formatBytes(s.savedBytes)));
    html += row(QObject::tr("Recomputed"), QString::number(s.recomputed));
    html += row(QObject::tr("Banned"), QString::number(s.banned));
    html += row(QObject::tr("Tagged"), QString::number(s.tagged));
    if (s.referenceOnly > 0)
        html += row(QObject::tr("Only PyTorch saves"), QString::number(s.referenceOnly));
    html += row(QObject::tr("Grouped by"), g.groups.method.toHtmlEscaped());
    html += QStringLiteral("</table>");
    std::vector<NodeId> saved;
    for (NodeId n : grp.members) {
        if (state.flags(n) & Saved)
            saved.push_back(n);
    }
    std::sort(saved.begin(), saved.end(), [&g](NodeId a, NodeId b) { return g.bytesOf(a) > g.bytesOf(b); });
    html += QObject::tr("<p><b>Saved values, largest first</b><br>%1</p>").arg(nodeList(g, saved, 30));
    html += QObject::tr("<p><i>Double-click the group on the canvas to expand it. Tagging a selected group "
                        "tags all its nodes.</i></p>");
    return html;
}

QString emptyReport(const LoadedGraph* graph)
{
    if (!graph)
        return QObject::tr("<p style='color:#666'>No graph open.</p>");
    return QObject::tr(
        "<p style='color:#666'>Select a node on the canvas, in the tables, or with Find (Ctrl+F) "
        "to see its op, value, tags and what the partitioner decided.</p>");
}

} // namespace remat::ui
