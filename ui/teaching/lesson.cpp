// SPDX-License-Identifier: MIT
#include "teaching/lesson.h"

#include "graph/error.h"
#include "model/node_text.h"
#include "partition/min_cut_preparation.h"
#include "teaching/dot_text.h"
#include "teaching/network_picture.h"

#include <QCoreApplication>

namespace remat::ui {
namespace {

/// Most saved values step 5 links across the two graphs with an arrow, their copies in the
/// backward in a row at its top: sac_conv_save_conv's 26 arrows were a wall of loops.
constexpr std::size_t kLinkedSavedValues = 10;

QString tr(const char* text)
{
    return QCoreApplication::translate("Lesson", text);
}

QString id(NodeId n)
{
    return QStringLiteral("n%1").arg(n);
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
            dot += QStringLiteral("  %1 [label=%2, %3];\n").arg(id(n), dotQuoted(label(n)), fill(n));
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
    step.dot = dotHeader() + c.jointGraph([&](NodeId n) {
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
    step.dot = dotHeader() + c.jointGraph([&](NodeId n) {
        return banned[static_cast<std::size_t>(n)]
            ? QStringLiteral("fillcolor=\"#ffb3b3\", color=\"#c00000\", penwidth=2")
            : QStringLiteral("fillcolor=\"%1\"").arg(QLatin1String(c.classColour(n)));
    }) + QStringLiteral("}\n");
    return step;
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
    const NetworkPicture picture = drawNetwork(c.graph, c.lesson, false);
    if (const QString folded = foldedNodesText(picture); !folded.isEmpty())
        step.text += QLatin1Char(' ') + folded;
    step.dot = picture.dot;
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
    const NetworkPicture picture = drawNetwork(c.graph, c.lesson, true);
    if (const QString folded = foldedNodesText(picture); !folded.isEmpty())
        step.text += QLatin1Char(' ') + folded;
    step.dot = picture.dot;
    return step;
}

LessonStep graphsStep(const Context& c)
{
    LessonStep step;
    step.title = tr("5 · The forward and backward graphs");
    QString dot = dotHeader();
    std::vector<char> saved(c.graph.size(), 0), inFw(c.graph.size(), 0), inBw(c.graph.size(), 0);
    for (NodeId n : c.result.savedValues)
        saved[static_cast<std::size_t>(n)] = 1;
    for (NodeId n : c.result.fwNodes)
        inFw[static_cast<std::size_t>(n)] = 1;
    for (NodeId n : c.result.bwNodes)
        inBw[static_cast<std::size_t>(n)] = 1;
    std::vector<NodeId> handedOver; // saved values drawn in both graphs
    for (NodeId n : c.result.savedValues) {
        if (c.shown(n) && inFw[static_cast<std::size_t>(n)] && inBw[static_cast<std::size_t>(n)])
            handedOver.push_back(n);
    }
    const bool linked = handedOver.size() <= kLinkedSavedValues;
    auto cluster = [&](const std::vector<NodeId>& nodes, const QString& name, const QString& title,
                       const QString& suffix) {
        QString out
            = QStringLiteral("  subgraph cluster_%1 {\n    label=%2; style=\"rounded\"; color=\"#888888\";\n")
                  .arg(name, dotQuoted(title));
        QString
            inputs; // of the backward, in a row at its top as in PyTorch's graph: saved values and tangents
        for (NodeId n : nodes) {
            if (!c.shown(n))
                continue;
            const bool isSaved = saved[static_cast<std::size_t>(n)] != 0;
            const QString fill = isSaved ? QStringLiteral("#9be29b") : QString::fromLatin1(c.classColour(n));
            out += QStringLiteral("    %1%2 [label=%3, fillcolor=\"%4\"];\n")
                       .arg(id(n), suffix, dotQuoted(c.label(n)), fill);
            if (suffix == QLatin1String("b") && (isSaved || c.graph.region(n) == Region::Tangent))
                inputs += QStringLiteral(" %1%2;").arg(id(n), suffix);
        }
        if (linked && !inputs.isEmpty())
            out += QStringLiteral("    { rank=same;%1 }\n").arg(inputs);
        return out + QStringLiteral("  }\n");
    };
    dot += cluster(c.result.fwNodes, QStringLiteral("fw"), tr("forward graph"), QStringLiteral("f"));
    dot += cluster(c.result.bwNodes, QStringLiteral("bw"), tr("backward graph"), QStringLiteral("b"));
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
    for (NodeId n : linked ? handedOver : std::vector<NodeId> {}) {
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
    if (!linked)
        step.text += QLatin1Char(' ')
            + tr("With %1 of them drawn, each is green in both graphs without an arrow from one to the other "
                 "(arrows across the picture hid the graphs).")
                  .arg(handedOver.size());
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
