// SPDX-License-Identifier: MIT
#include "teaching/lesson.h"

#include "graph/error.h"
#include "model/node_text.h"
#include "partition/min_cut_preparation.h"

#include <QCoreApplication>

#include <limits>
#include <map>

namespace remat::ui {
namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("Lesson", text);
}

QString quoted(const QString& text)
{
    QString out = text;
    out.replace(QLatin1Char('\\'), QLatin1String("\\\\")).replace(QLatin1Char('"'), QLatin1String("\\\""));
    return QLatin1Char('"') + out + QLatin1Char('"');
}

QString id(NodeId n)
{
    return QStringLiteral("n%1").arg(n);
}

QString header(const QString& rankdir = QStringLiteral("TB"))
{
    return QStringLiteral("digraph lesson {\n  rankdir=%1; bgcolor=\"white\"; nodesep=0.25; ranksep=0.35;\n"
                          "  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\", fontsize=10, "
                          "fillcolor=\"white\", color=\"#555555\"];\n"
                          "  edge [color=\"#777777\", arrowsize=0.6, fontname=\"Helvetica\", fontsize=9];\n")
        .arg(rankdir);
}

QString weightText(std::int64_t capacity)
{
    return capacity == PartitionResult::kInfiniteWeight ? QStringLiteral("∞") : QString::number(capacity);
}

/// The facts every step draws from.
struct Context {
    const LoadedGraph& graph;
    const PreparedMinCut& prepared;
    const MinCutLesson& lesson;
    const PartitionResult& result;
    std::vector<char> inRegion;

    QString label(NodeId n) const
    {
        return graph.label(n).name + QLatin1Char('\n') + opLabel(graph.graph, n);
    }
    bool shown(NodeId n) const { return inRegion[static_cast<std::size_t>(n)] != 0; }
    const char* classColour(NodeId n) const
    {
        switch (graph.region(n)) {
        case Region::Primal:
            return "#d9d9d9";
        case Region::Tangent:
            return "#ffe08a";
        case Region::Forward:
            return "#cfe3ff";
        case Region::Backward:
            return "#e6d5f5";
        case Region::Unclaimed:
            return "#e8f5e0";
        case Region::Output:
            return "#ffffff";
        }
        return "#ffffff";
    }
    /// The joint graph's nodes and edges inside the region, each node filled by `fill`.
    template <typename Fill> QString jointGraph(Fill fill) const
    {
        QString dot;
        for (NodeId n : lesson.regionNodes)
            dot += QStringLiteral("  %1 [label=%2, %3];\n").arg(id(n), quoted(label(n)), fill(n));
        for (NodeId n : lesson.regionNodes) {
            for (NodeId input : graph.graph.node(n).inputs) {
                if (shown(input))
                    dot += QStringLiteral("  %1 -> %2;\n").arg(id(input), id(n));
            }
        }
        return dot;
    }
};

LessonStep classesStep(const Context& c)
{
    LessonStep step;
    step.title = tr("1 · The joint graph");
    step.text = tr(
        "AOTAutograd traced the forward and the backward into one graph. Grey nodes are the primals "
        "(weights and inputs), yellow the tangents (the incoming gradients). Blue nodes are needed for the "
        "forward's outputs (required_fw), purple ones depend on the tangents and run in the backward "
        "(required_bw), green ones only the backward needs (unclaimed). The partitioner must decide, for "
        "every blue value the backward reads, whether to save it or to recompute it there.");
    step.dot = header() + c.jointGraph([&](NodeId n) {
        return QStringLiteral("fillcolor=\"%1\"").arg(QLatin1String(c.classColour(n)));
    }) + QStringLiteral("}\n");
    return step;
}

LessonStep bansStep(const Context& c)
{
    LessonStep step;
    step.title = tr("2 · What may not be recomputed");
    std::vector<char> banned(c.graph.size(), 0);
    QString reasons;
    for (const BannedNode& b : c.lesson.banned) {
        banned[static_cast<std::size_t>(b.node)] = 1;
        reasons += QStringLiteral("<li><b>%1</b>: %2</li>")
                       .arg(c.graph.label(b.node).name.toHtmlEscaped(),
                           QString::fromStdString(b.reason).toHtmlEscaped());
    }
    step.text
        = tr("Some values must come from the forward: recomputing them would be slow (matmuls, reductions), "
             "random, or too far from where the backward needs them. The partitioner bans them (red); in the "
             "network a banned node gets an infinite edge from the source, so it can only be saved.")
        + (reasons.isEmpty() ? tr("<p>Nothing is banned here.</p>")
                             : QStringLiteral("<ul>%1</ul>").arg(reasons));
    step.dot = header() + c.jointGraph([&](NodeId n) {
        return banned[static_cast<std::size_t>(n)]
            ? QStringLiteral("fillcolor=\"#ffb3b3\", color=\"#c00000\", penwidth=2")
            : QStringLiteral("fillcolor=\"%1\"").arg(QLatin1String(c.classColour(n)));
    }) + QStringLiteral("}\n");
    return step;
}

QString networkDot(const Context& c, bool withCut)
{
    // Top to bottom like the joint graph, each X_in beside its X_out: the network keeps the shape
    // of the graph the student just saw, twice as wide rather than a hairline twice as long.
    QString dot = header();
    const auto& vertices = c.lesson.vertices;
    constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();
    std::map<NodeId, std::pair<std::size_t, std::size_t>> pairOf;
    for (std::size_t v = 0; v < vertices.size(); ++v) {
        const MinCutLesson::Vertex& x = vertices[v];
        if (x.kind == MinCutLesson::VertexKind::In || x.kind == MinCutLesson::VertexKind::Out) {
            auto& inOut = pairOf.try_emplace(x.node, kNone, kNone).first->second;
            (x.kind == MinCutLesson::VertexKind::In ? inOut.first : inOut.second) = v;
        } else // the source above everything, the sink below
            dot += QStringLiteral("  { rank=%1; v%2; }\n")
                       .arg(x.kind == MinCutLesson::VertexKind::Source ? QStringLiteral("min")
                                                                       : QStringLiteral("max"))
                       .arg(v);
    }
    for (const auto& [node, inOut] : pairOf) {
        if (inOut.first != kNone && inOut.second != kNone)
            dot += QStringLiteral("  { rank=same; v%1; v%2; }\n").arg(inOut.first).arg(inOut.second);
    }
    for (std::size_t v = 0; v < vertices.size(); ++v) {
        const MinCutLesson::Vertex& x = vertices[v];
        QString label, style;
        switch (x.kind) {
        case MinCutLesson::VertexKind::Source:
            label = tr("source\n(the forward)");
            style = QStringLiteral("shape=doublecircle, fillcolor=\"#b7e4b7\"");
            break;
        case MinCutLesson::VertexKind::Sink:
            label = tr("sink\n(the backward)");
            style = QStringLiteral("shape=doublecircle, fillcolor=\"#d9c2ee\"");
            break;
        case MinCutLesson::VertexKind::In:
            label = c.graph.label(x.node).name + QStringLiteral("_in");
            style = QStringLiteral("shape=ellipse");
            break;
        case MinCutLesson::VertexKind::Out:
            label = c.graph.label(x.node).name + QStringLiteral("_out");
            style = QStringLiteral("shape=ellipse");
            break;
        }
        if (withCut && x.kind != MinCutLesson::VertexKind::Source && x.kind != MinCutLesson::VertexKind::Sink)
            style += x.sinkSide ? QStringLiteral(", fillcolor=\"#eadcf7\"")
                                : QStringLiteral(", fillcolor=\"#dff3df\"");
        dot += QStringLiteral("  v%1 [label=%2, %3];\n").arg(v).arg(quoted(label), style);
    }
    for (const MinCutLesson::Edge& e : c.lesson.edges) {
        QString attrs;
        switch (e.kind) {
        case MinCutLesson::EdgeKind::Ban:
            attrs = QStringLiteral("color=\"#c00000\", label=\"∞ ban\"");
            break;
        case MinCutLesson::EdgeKind::Save:
            attrs = QStringLiteral("color=\"#2060c0\", penwidth=1.6, label=%1")
                        .arg(quoted(weightText(e.capacity)));
            break;
        case MinCutLesson::EdgeKind::Data:
            attrs = QStringLiteral("color=\"#999999\"");
            break;
        case MinCutLesson::EdgeKind::NeededInBackward:
        case MinCutLesson::EdgeKind::ComputedInBackward:
            attrs = QStringLiteral("style=dashed, color=\"#8a5cb8\"");
            break;
        }
        if (withCut && e.cut)
            attrs += QStringLiteral(", color=\"#e00000\", penwidth=3.5, fontcolor=\"#e00000\"");
        dot += QStringLiteral("  v%1 -> v%2 [%3];\n").arg(e.from).arg(e.to).arg(attrs);
    }
    return dot + QStringLiteral("}\n");
}

LessonStep networkStep(const Context& c)
{
    LessonStep step;
    step.title = tr("3 · The flow network");
    step.text = tr(
        "Each node X becomes two vertices, X_in → X_out; the blue edge between them costs what saving X "
        "costs (its size, weighted as the rules say; ∞ when it cannot be saved). Grey edges follow the data "
        "and are infinite, so a cut can never separate a value from its users. The source stands for the "
        "forward, the sink for the backward: dashed edges say what the backward needs or computes. "
        "The whole network has %1 vertices and %2 edges.")
                    .arg(c.lesson.totalVertices)
                    .arg(c.lesson.totalEdges);
    step.dot = networkDot(c, false);
    return step;
}

LessonStep cutStep(const Context& c)
{
    LessonStep step;
    step.title = tr("4 · Max-flow and the minimum cut");
    QStringList saved;
    for (NodeId n : c.lesson.saved)
        saved << c.graph.label(n).name;
    step.text = tr(
        "Boost's max-flow pushes as much as it can from source to sink; the edges it saturates form the "
        "cheapest cut (value %1 for the whole graph). Vertices still reachable from the source (green) are "
        "available in the forward; the others (purple) are recomputed in the backward. Every cut blue edge "
        "X_in → X_out is a value to save: <b>%2</b>.")
                    .arg(c.lesson.cutValue)
                    .arg(saved.isEmpty() ? tr("none in this region")
                                         : saved.join(QStringLiteral(", ")).toHtmlEscaped());
    step.dot = networkDot(c, true);
    return step;
}

LessonStep graphsStep(const Context& c)
{
    LessonStep step;
    step.title = tr("5 · The forward and backward graphs");
    QString dot = header();
    std::vector<char> saved(c.graph.size(), 0);
    for (NodeId n : c.result.savedValues)
        saved[static_cast<std::size_t>(n)] = 1;
    auto cluster = [&](const std::vector<NodeId>& nodes, const QString& name, const QString& title,
                       const QString& suffix) {
        QString out
            = QStringLiteral("  subgraph cluster_%1 {\n    label=%2; style=\"rounded\"; color=\"#888888\";\n")
                  .arg(name, quoted(title));
        for (NodeId n : nodes) {
            if (!c.shown(n))
                continue;
            const QString fill = saved[static_cast<std::size_t>(n)] ? QStringLiteral("#9be29b")
                                                                    : QString::fromLatin1(c.classColour(n));
            out += QStringLiteral("    %1%2 [label=%3, fillcolor=\"%4\"];\n")
                       .arg(id(n), suffix, quoted(c.label(n)), fill);
        }
        return out + QStringLiteral("  }\n");
    };
    dot += cluster(c.result.fwNodes, QStringLiteral("fw"), tr("forward graph"), QStringLiteral("f"));
    dot += cluster(c.result.bwNodes, QStringLiteral("bw"), tr("backward graph"), QStringLiteral("b"));
    std::vector<char> inFw(c.graph.size(), 0), inBw(c.graph.size(), 0);
    for (NodeId n : c.result.fwNodes)
        inFw[static_cast<std::size_t>(n)] = 1;
    for (NodeId n : c.result.bwNodes)
        inBw[static_cast<std::size_t>(n)] = 1;
    for (NodeId n : c.lesson.regionNodes) {
        for (NodeId input : c.graph.graph.node(n).inputs) {
            if (!c.shown(input))
                continue;
            if (inFw[static_cast<std::size_t>(n)] && inFw[static_cast<std::size_t>(input)])
                dot += QStringLiteral("  %1f -> %2f;\n").arg(id(input), id(n));
            if (inBw[static_cast<std::size_t>(n)] && inBw[static_cast<std::size_t>(input)])
                dot += QStringLiteral("  %1b -> %2b;\n").arg(id(input), id(n));
        }
    }
    for (NodeId n : c.result.savedValues) {
        if (c.shown(n) && inFw[static_cast<std::size_t>(n)] && inBw[static_cast<std::size_t>(n)])
            dot += QStringLiteral("  %1f -> %1b [color=\"#1a9a1a\", penwidth=2.5, style=dashed, "
                                  "label=\"saved\", constraint=false];\n")
                       .arg(id(n));
    }
    step.dot = dot + QStringLiteral("}\n");
    step.text = tr(
        "The cut becomes two graphs. The forward computes its outputs and hands the saved values (green, "
        "%1 in all, %2) to the backward; the backward takes them with the tangents and recomputes the rest "
        "(%3 nodes appear in both graphs).")
                    .arg(c.result.savedValues.size())
                    .arg(formatBytes(c.result.savedBytes))
                    .arg(c.result.recomputed.size());
    return step;
}

} // namespace

LessonPtr buildLesson(
    const LoadedGraphPtr& graph, PartitionOptions options, const std::vector<NodeId>& region)
{
    auto lesson = std::make_shared<Lesson>();
    try {
        options.partitioner = PartitionerKind::MinCut;
        const PreparedMinCut prepared(graph->graph, options);
        const MinCutLesson cut = buildMinCutLesson(prepared, region);
        if (cut.regionNodes.size() > kLessonMaxNodes)
            throw Error(QStringLiteral(
                "%1 nodes are too many to draw (at most %2): select a region of the graph first")
                            .arg(cut.regionNodes.size())
                            .arg(kLessonMaxNodes)
                            .toStdString());
        PartitionResult result;
        result.options = options;
        prepared.finish(prepared.solve(), result);
        Context context {*graph, prepared, cut, result, std::vector<char>(graph->size(), 0)};
        for (NodeId n : cut.regionNodes)
            context.inRegion[static_cast<std::size_t>(n)] = 1;
        const std::string_view rules = ruleSetName(options.rules);
        lesson->rules = QString::fromUtf8(rules.data(), static_cast<qsizetype>(rules.size()));
        lesson->scope = region.empty()
            ? QCoreApplication::translate("Lesson", "all %1 nodes").arg(cut.regionNodes.size())
            : QCoreApplication::translate("Lesson", "%1 selected nodes of %2")
                  .arg(cut.regionNodes.size())
                  .arg(graph->size());
        lesson->steps = {classesStep(context), bansStep(context), networkStep(context), cutStep(context),
            graphsStep(context)};
    } catch (const std::exception& e) {
        lesson->error = QString::fromUtf8(e.what());
    }
    return lesson;
}

} // namespace remat::ui
