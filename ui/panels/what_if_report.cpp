// SPDX-License-Identifier: MIT
#include "panels/what_if_report.h"

#include "budget/runtime_text.h"
#include "model/budget_text.h"
#include "model/node_text.h"
#include "model/policy_names.h"
#include "plots/plot_units.h"

#include <QCoreApplication>
#include <QStringList>

namespace remat::ui {
namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("WhatIfReport", text);
}

QString glossary(const QString& topic, const QString& text)
{
    return QStringLiteral("<a href='glossary:%1'>%2</a>").arg(topic, text);
}

QString weight(std::int64_t capacity)
{
    if (capacity == PartitionResult::kInfiniteWeight)
        return QStringLiteral("∞");
    if (capacity == PartitionResult::kNoWeightEdge)
        return tr("no save edge");
    return QString::number(capacity);
}

QString edgeList(const LoadedGraph& graph, const std::vector<SaveEdge>& edges)
{
    QStringList parts;
    for (const SaveEdge& e : edges) {
        parts << QStringLiteral("<a href='node:%1'>%2</a> %3%4")
                     .arg(e.node)
                     .arg(graph.label(e.node).name.toHtmlEscaped(), weight(e.capacity),
                         e.onCut ? tr(" <b>(cut: saved)</b>") : QString());
    }
    return parts.isEmpty() ? tr("none") : parts.join(QStringLiteral(", "));
}

QString deltaRow(const QString& what, const QString& delta)
{
    return QStringLiteral("<tr><td style='color:#555; padding-right:10px'>%1</td><td><b>%2</b></td></tr>")
        .arg(what, delta);
}

QString flipSection(const LoadedGraph& graph, const NodeAnalysis& a)
{
    const WhatIf& w = a.whatIf;
    QString html = QStringLiteral("<h3>What if</h3>");
    if (!w.flipTag) {
        return html + QStringLiteral("<p>%1</p>").arg(QString::fromStdString(w.reason).toHtmlEscaped())
            + (w.decision == NodeDecision::Banned
                    ? tr("<p>Not even a MUST_RECOMPUTE tag lifts this %1, so it has no flip.</p>")
                          .arg(glossary(QStringLiteral("banned"), tr("ban")))
                    : QString());
    }
    const QString tag = QString::fromLatin1(policyName(*w.flipTag));
    if (!w.feasible) {
        return html
            + tr("<p>Tagging it %1 makes the plan fail: %2</p>")
                  .arg(tag, QString::fromStdString(w.error).toHtmlEscaped());
    }
    const std::string& unit = w.before.runtimeUnit;
    if (w.decision == NodeDecision::Banned)
        html += tr("<p>It is %1, but a MUST_RECOMPUTE tag lifts the ban.</p>")
                    .arg(glossary(QStringLiteral("banned"), tr("banned")));
    const bool tagsItsOp = w.flipNode != w.node;
    const QString opName = tagsItsOp ? graph.label(w.flipNode).name.toHtmlEscaped() : QString();
    if (tagsItsOp)
        html += tr("<p>Tag <b>%1</b>, the op it unpacks, <b>%2</b> (in PyTorch's min-cut a getitem's own "
                   "MUST_SAVE tag saves nothing; the op's tag reaches its getitems):</p>")
                    .arg(opName, tag);
    else
        html += tr("<p>Tag it <b>%1</b>%2:</p>")
                    .arg(tag, w.flipped ? QString() : tr(" (its own decision would not change)"));
    html += QStringLiteral("<table>");
    html += deltaRow(tr("saved bytes"),
        formatBytesDelta(w.after.savedBytes - w.before.savedBytes)
            + QStringLiteral(" (%1 → %2)")
                  .arg(formatBytes(w.before.savedBytes), formatBytes(w.after.savedBytes)));
    html += deltaRow(glossary(QStringLiteral("peak"), tr("simulated peak")),
        formatBytesDelta(w.after.peakBytes - w.before.peakBytes)
            + QStringLiteral(" (%1 → %2)")
                  .arg(formatBytes(w.before.peakBytes), formatBytes(w.after.peakBytes)));
    html += deltaRow(glossary(QStringLiteral("estimated-runtime"), tr("estimated recompute")),
        formatRuntimeDelta(w.after.estimatedRuntime - w.before.estimatedRuntime, unit));
    html += deltaRow(tr("other nodes that change"), QString::number(w.changedNodes.size()));
    html += QStringLiteral("</table>");
    if (const std::string note
        = flooredOpsNote(w.after.flooredRecomputeCount - w.before.flooredRecomputeCount, unit);
        !note.empty())
        html += QStringLiteral("<p><small>%1: %2.</small></p>")
                    .arg(formatRuntimeDelta(w.after.estimatedRuntime - w.before.estimatedRuntime, unit),
                        QString::fromStdString(note).toHtmlEscaped());
    if (!w.changedNodes.empty()) {
        QStringList names;
        for (std::size_t i = 0; i < std::min<std::size_t>(w.changedNodes.size(), 12); ++i)
            names << QStringLiteral("<a href='node:%1'>%2</a>")
                         .arg(w.changedNodes[i])
                         .arg(graph.label(w.changedNodes[i]).name.toHtmlEscaped());
        if (w.changedNodes.size() > 12)
            names << tr("and %1 more").arg(w.changedNodes.size() - 12);
        html += QStringLiteral("<p>%1 (<a href='flash:'>flash them</a>)</p>")
                    .arg(names.join(QStringLiteral(", ")));
    }
    html += tr(
        "<p><a href='apply:'><b>Apply: tag %1 %2</b></a> &nbsp;(undo with Ctrl+Z) · computed in %3 ms</p>")
                .arg(tagsItsOp ? opName : tr("it"), tag)
                .arg(a.seconds * 1000, 0, 'f', 0);
    return html;
}

QString cutSection(const LoadedGraph& graph, const NodeAnalysis& a)
{
    if (!a.neighbourhood)
        return {};
    const CutNeighbourhood& c = *a.neighbourhood;
    QString html;
    if (c.minCut && c.self.capacity != PartitionResult::kNoWeightEdge) {
        // The unit is a formula: its head ("bytes x 1.1^dist_from_bw") beside each number, the
        // whole of it once under the table.
        const QString unit = QString::fromStdString(c.weightUnit);
        const qsizetype paren = unit.indexOf(QLatin1String(" ("));
        // A zero-width space after each underscore: the dock's narrow column then wraps
        // "dist_from_bw" between its words, not after any letter.
        const QString shortUnit = (paren > 0 ? unit.left(paren) : unit)
                                      .toHtmlEscaped()
                                      .replace(QLatin1Char('_'), QStringLiteral("_\u200B"));
        html += QStringLiteral("<h3>In the %1</h3><table>")
                    .arg(glossary(QStringLiteral("cut"), tr("min-cut")));
        html += deltaRow(glossary(QStringLiteral("save-edge-weight"), tr("its save edge")),
            tr("%1 %2%3").arg(weight(c.self.capacity), shortUnit,
                c.self.onCut ? tr(", on the cut: saved") : tr(", not cut")));
        if (c.cutValue)
            html += deltaRow(tr("cut value"), tr("%1 %2").arg(*c.cutValue).arg(shortUnit));
        html += deltaRow(tr("producers' save edges"), edgeList(graph, c.producers));
        html += deltaRow(tr("consumers' save edges"), edgeList(graph, c.consumers));
        html += QStringLiteral("</table>");
        if (paren > 0)
            html += QStringLiteral("<p><small>%1</small></p>")
                        .arg(tr("Capacities: %1").arg(unit.toHtmlEscaped()));
    }
    if (c.knapsack) {
        const KnapsackPlace& k = *c.knapsack;
        html += tr(
            "<h3>In the knapsack</h3><p>Saving it costs %1 (%2 of the range the budget spans); recomputing "
            "it "
            "costs %3, so it spares %4 per MiB. It ranks <b>%5 of %6</b> by runtime saved per byte, and the "
            "knapsack %7.</p>")
                    .arg(formatBytes(k.bytes))
                    .arg(k.memory, 0, 'f', 4)
                    .arg(formatRuntime(k.runtime, k.runtimeUnit),
                        formatRuntime(k.runtimePerByte * 1024 * 1024, k.runtimeUnit))
                    .arg(k.rank)
                    .arg(k.itemCount)
                    .arg(k.kept ? tr("kept it (saved)") : tr("let it be recomputed"));
    }
    return html;
}

} // namespace

QString whatIfReport(const LoadedGraph& graph, const NodeAnalysis& analysis)
{
    if (!analysis.error.isEmpty())
        return tr("<h3>What if</h3><p>%1</p>").arg(analysis.error.toHtmlEscaped());
    return flipSection(graph, analysis) + cutSection(graph, analysis);
}

} // namespace remat::ui
