// SPDX-License-Identifier: MIT
#include "teaching/network_picture.h"

#include "model/loaded_graph.h"
#include "teaching/dot_text.h"

#include <QCoreApplication>

#include <algorithm>
#include <limits>
#include <map>
#include <set>

namespace remat::ui {
namespace {

using EdgeKind = MinCutLesson::EdgeKind;
using VertexKind = MinCutLesson::VertexKind;

/// Left to right once the widest rank holds this many times more vertices than there are ranks:
/// sac_conv_save_conv (all recomputed) is 60 vertices wide and 4 ranks deep, a strip that opened
/// at a third of its size; mlp3_relu (12 wide, 14 deep) stays top to bottom like its joint graph.
constexpr int kWidthPerRankForLeftToRight = 3;

QString tr(const char* text)
{
    return QCoreApplication::translate("Lesson", text);
}

QString weightText(std::int64_t capacity)
{
    return capacity == PartitionResult::kInfiniteWeight ? QStringLiteral("∞") : QString::number(capacity);
}

/// The vertices drawn inside the sink: X_in of a node that must be computed in the backward (the
/// backward's own, or tagged to be recomputed), whose only edge out is its infinite edge to the
/// sink. No finite cut separates it from the sink; drawn, they filled one rank above the sink, on a
/// graph of a hundred nodes a row wider than the rest of the network.
std::vector<char> foldedIntoSink(const MinCutLesson& lesson)
{
    std::vector<char> toSink(lesson.vertices.size(), 0), otherEdgeOut(lesson.vertices.size(), 0);
    for (const MinCutLesson::Edge& e : lesson.edges)
        (e.kind == EdgeKind::ComputedInBackward ? toSink : otherEdgeOut)[static_cast<std::size_t>(e.from)]
            = 1;
    std::vector<char> folded(lesson.vertices.size(), 0);
    for (std::size_t v = 0; v < lesson.vertices.size(); ++v)
        folded[v] = toSink[v] && !otherEdgeOut[v];
    return folded;
}

/// The edges as drawn: none out of a folded vertex, an edge into one goes into the sink, once.
std::vector<MinCutLesson::Edge> drawnEdges(
    const MinCutLesson& lesson, const std::vector<char>& folded, int sink)
{
    std::vector<MinCutLesson::Edge> drawn;
    std::set<int> intoSink;
    for (MinCutLesson::Edge e : lesson.edges) {
        if (folded[static_cast<std::size_t>(e.from)])
            continue;
        if (folded[static_cast<std::size_t>(e.to)]) {
            e.to = sink;
            e.kind = EdgeKind::NeededInBackward;
        }
        if (e.to == sink && !intoSink.insert(e.from).second)
            continue;
        drawn.push_back(e);
    }
    return drawn;
}

/// Whether the drawn network is far wider than deep, ranked as dot ranks it: a data edge one rank
/// down, X_out beside X_in, the source above everything and the sink below.
bool wideAndShallow(
    const MinCutLesson& lesson, const std::vector<char>& folded, const std::vector<MinCutLesson::Edge>& edges)
{
    const std::size_t count = lesson.vertices.size();
    std::vector<std::vector<const MinCutLesson::Edge*>> out(count);
    std::vector<int> pending(count, 0), rank(count, 0);
    for (const MinCutLesson::Edge& e : edges) {
        out[static_cast<std::size_t>(e.from)].push_back(&e);
        ++pending[static_cast<std::size_t>(e.to)];
    }
    std::vector<std::size_t> ready;
    for (std::size_t v = 0; v < count; ++v) {
        if (pending[v] == 0)
            ready.push_back(v);
    }
    while (!ready.empty()) { // longest paths in the DAG; a vertex on a cycle (none) keeps rank 0
        const std::size_t v = ready.back();
        ready.pop_back();
        for (const MinCutLesson::Edge* e : out[v]) {
            const auto to = static_cast<std::size_t>(e->to);
            rank[to] = std::max(rank[to], rank[v] + (e->kind == EdgeKind::Save ? 0 : 1));
            if (--pending[to] == 0)
                ready.push_back(to);
        }
    }
    std::map<int, int> perRank;
    for (std::size_t v = 0; v < count; ++v) {
        const VertexKind kind = lesson.vertices[v].kind;
        if (!folded[v] && (kind == VertexKind::In || kind == VertexKind::Out))
            ++perRank[rank[v]];
    }
    int widest = 0;
    for (const auto& [r, vertices] : perRank)
        widest = std::max(widest, vertices);
    const int ranks = static_cast<int>(perRank.size()) + 2; // and the source's and the sink's
    return widest > kWidthPerRankForLeftToRight * ranks;
}

QString vertexText(const LoadedGraph& graph, const MinCutLesson::Vertex& x, int foldedNodes)
{
    switch (x.kind) {
    case VertexKind::Source:
        return tr("source\n(the forward)");
    case VertexKind::Sink:
        return foldedNodes > 0 ? tr("sink\n(the backward,\n%1 nodes)").arg(foldedNodes)
                               : tr("sink\n(the backward)");
    case VertexKind::In:
        return graph.label(x.node).name + QStringLiteral("_in");
    case VertexKind::Out:
        return graph.label(x.node).name + QStringLiteral("_out");
    }
    return {};
}

QString edgeAttributes(const MinCutLesson::Edge& e, bool withCut)
{
    QString attrs;
    switch (e.kind) {
    case EdgeKind::Ban:
        attrs = QStringLiteral("color=\"#c00000\", label=\"∞ ban\"");
        break;
    case EdgeKind::Save:
        attrs = QStringLiteral("color=\"#2060c0\", penwidth=1.6, label=%1")
                    .arg(dotQuoted(weightText(e.capacity)));
        // Short and straight: X_out beside X_in (in its row, left to right). Without, dot set many
        // apart and their save edges crossed the picture (transformer_block: 2 887 points wide, 2 336 with).
        attrs += QStringLiteral(", weight=8");
        break;
    case EdgeKind::Data:
        attrs = QStringLiteral("color=\"#999999\"");
        break;
    case EdgeKind::NeededInBackward:
    case EdgeKind::ComputedInBackward:
        // No pull on the sink: a value the backward reads stays where the data puts it.
        attrs = QStringLiteral("style=dashed, color=\"#8a5cb8\", weight=0");
        break;
    }
    if (withCut && e.cut)
        attrs += QStringLiteral(", color=\"#e00000\", penwidth=3.5, fontcolor=\"#e00000\"");
    return attrs;
}

} // namespace

NetworkPicture drawNetwork(const LoadedGraph& graph, const MinCutLesson& lesson, bool withCut)
{
    NetworkPicture picture;
    const auto& vertices = lesson.vertices;
    const std::vector<char> folded = foldedIntoSink(lesson);
    int sink = -1;
    for (std::size_t v = 0; v < vertices.size(); ++v) {
        picture.foldedNodes += folded[v];
        if (vertices[v].kind == VertexKind::Sink)
            sink = static_cast<int>(v);
    }
    const std::vector<MinCutLesson::Edge> edges = drawnEdges(lesson, folded, sink);
    const bool leftToRight = wideAndShallow(lesson, folded, edges);

    // Top to bottom, each X_in beside its X_out: the network keeps the shape of the graph the
    // student just saw, twice as wide rather than a hairline twice as long. Left to right, X_out
    // follows X_in in the next column, in the same row (beside each other in one column, dot put
    // them apart and the save edges crossed the picture).
    QString& dot = picture.dot;
    dot = dotHeader(leftToRight ? QStringLiteral("LR") : QStringLiteral("TB"));
    constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();
    std::map<NodeId, std::pair<std::size_t, std::size_t>> pairOf;
    for (std::size_t v = 0; v < vertices.size(); ++v) {
        const MinCutLesson::Vertex& x = vertices[v];
        if (folded[v])
            continue;
        if (x.kind == VertexKind::In || x.kind == VertexKind::Out) {
            auto& inOut = pairOf.try_emplace(x.node, kNone, kNone).first->second;
            (x.kind == VertexKind::In ? inOut.first : inOut.second) = v;
        } else // the source first, the sink last
            dot += QStringLiteral("  { rank=%1; v%2; }\n")
                       .arg(x.kind == VertexKind::Source ? QStringLiteral("min") : QStringLiteral("max"))
                       .arg(v);
    }
    for (const auto& [node, inOut] : pairOf) {
        if (!leftToRight && inOut.first != kNone && inOut.second != kNone)
            dot += QStringLiteral("  { rank=same; v%1; v%2; }\n").arg(inOut.first).arg(inOut.second);
    }
    for (std::size_t v = 0; v < vertices.size(); ++v) {
        if (folded[v])
            continue;
        const MinCutLesson::Vertex& x = vertices[v];
        QString style;
        switch (x.kind) {
        case VertexKind::Source:
            style = QStringLiteral("shape=doublecircle, fillcolor=\"#b7e4b7\"");
            break;
        case VertexKind::Sink:
            style = QStringLiteral("shape=doublecircle, fillcolor=\"#d9c2ee\"");
            break;
        case VertexKind::In:
        case VertexKind::Out:
            style = QStringLiteral("shape=ellipse");
            if (withCut)
                style += x.sinkSide ? QStringLiteral(", fillcolor=\"#eadcf7\"")
                                    : QStringLiteral(", fillcolor=\"#dff3df\"");
            break;
        }
        dot += QStringLiteral("  v%1 [label=%2, %3];\n")
                   .arg(v)
                   .arg(dotQuoted(vertexText(graph, x, picture.foldedNodes)), style);
    }
    for (const MinCutLesson::Edge& e : edges)
        dot += QStringLiteral("  v%1 -> v%2 [%3];\n").arg(e.from).arg(e.to).arg(edgeAttributes(e, withCut));
    dot += QStringLiteral("}\n");
    return picture;
}

QString foldedNodesText(const NetworkPicture& picture)
{
    if (picture.foldedNodes == 0)
        return {};
    return tr("The %1 nodes that must be computed in the backward (the backward's own, and any tagged to be "
              "recomputed) are drawn inside the sink: each has an infinite edge to it, so no cut separates "
              "them from it, and an edge into one of them is drawn into the sink.")
        .arg(picture.foldedNodes);
}

} // namespace remat::ui
