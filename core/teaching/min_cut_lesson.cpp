// SPDX-License-Identifier: MIT
#include "teaching/min_cut_lesson.h"

#include "graph/error.h"
#include "partition/min_cut_preparation.h"

#include <algorithm>
#include <unordered_map>

namespace remat {
namespace {

using Kind = MinCutLesson::EdgeKind;

Kind edgeKind(const FlowNetwork::Edge& edge, bool fromIsIn, bool toIsIn)
{
    if (edge.from == FlowNetwork::kSource)
        return Kind::Ban;
    if (edge.to == FlowNetwork::kSink)
        return fromIsIn ? Kind::ComputedInBackward : Kind::NeededInBackward;
    if (fromIsIn && !toIsIn)
        return Kind::Save;
    return Kind::Data;
}

} // namespace

MinCutLesson buildMinCutLesson(const PreparedMinCut& prepared, const std::vector<NodeId>& region)
{
    if (!prepared.hasBackward())
        throw Error("the graph has no backward: there is nothing to cut");
    const MinCutNetworkBuild build
        = prepared.buildNetwork(prepared.baseOptions(), std::vector<char>(prepared.joint().size(), 0));
    const FlowNetwork& flow = build.network.flow();
    const auto cut = flow.minimumCut();
    if (!cut)
        throw Error("no finite cut: a value the backward needs can be neither saved nor recomputed");

    // Which node each network vertex splits (in = 2 + 2 * position, out = in + 1).
    const WorkGraph& work = prepared.graph();
    std::vector<NodeId> nodeOf(static_cast<std::size_t>(flow.vertexCount()), kNoNode);
    std::vector<char> inRegion(prepared.joint().size(), region.empty() ? 1 : 0);
    for (NodeId n : region)
        inRegion[static_cast<std::size_t>(n)] = 1;
    MinCutLesson lesson;
    for (NodeId n = 0; n < static_cast<NodeId>(prepared.joint().size()); ++n) {
        if (!work.alive(n) || work.position(n) < 0)
            continue;
        const int in = build.network.in(n);
        if (in + 1 >= flow.vertexCount())
            continue;
        nodeOf[static_cast<std::size_t>(in)] = n;
        nodeOf[static_cast<std::size_t>(in + 1)] = n;
        if (inRegion[static_cast<std::size_t>(n)])
            lesson.regionNodes.push_back(n);
    }

    std::unordered_map<int, int> renumbered;
    auto vertex = [&](int v) {
        if (auto it = renumbered.find(v); it != renumbered.end())
            return it->second;
        MinCutLesson::Vertex out;
        out.kind = v == FlowNetwork::kSource ? MinCutLesson::VertexKind::Source
            : v == FlowNetwork::kSink        ? MinCutLesson::VertexKind::Sink
            : v % 2 == 0                     ? MinCutLesson::VertexKind::In
                                             : MinCutLesson::VertexKind::Out;
        out.node = nodeOf[static_cast<std::size_t>(v)];
        out.sinkSide = cut->sinkSide[static_cast<std::size_t>(v)] != 0;
        lesson.vertices.push_back(out);
        return renumbered[v] = static_cast<int>(lesson.vertices.size()) - 1;
    };
    vertex(FlowNetwork::kSource);
    vertex(FlowNetwork::kSink);
    auto shown = [&](int v) {
        const NodeId n = nodeOf[static_cast<std::size_t>(v)];
        return v == FlowNetwork::kSource || v == FlowNetwork::kSink
            || (n != kNoNode && inRegion[static_cast<std::size_t>(n)]);
    };
    std::vector<char> isCut(flow.edges().size(), 0);
    for (int e : cut->cutEdges)
        isCut[static_cast<std::size_t>(e)] = 1;
    for (std::size_t e = 0; e < flow.edges().size(); ++e) {
        const FlowNetwork::Edge& edge = flow.edges()[e];
        if (!shown(edge.from) || !shown(edge.to))
            continue;
        // Drawing source and sink edges of every node would hide the graph: keep those of the region.
        MinCutLesson::Edge out;
        out.kind = edgeKind(edge, edge.from >= 2 && edge.from % 2 == 0, edge.to >= 2 && edge.to % 2 == 0);
        out.from = vertex(edge.from);
        out.to = vertex(edge.to);
        out.capacity = edge.infinite ? PartitionResult::kInfiniteWeight : edge.capacity;
        out.cut = isCut[e] != 0;
        if (out.cut)
            lesson.regionCutValue += edge.capacity;
        lesson.edges.push_back(out);
    }
    const SplitNodeNetwork::Solution solution = build.network.solve();
    for (NodeId n : solution.saved) {
        if (inRegion[static_cast<std::size_t>(n)])
            lesson.saved.push_back(n);
    }
    for (const BannedNode& b : build.network.banned()) {
        if (inRegion[static_cast<std::size_t>(b.node)])
            lesson.banned.push_back(b);
    }
    lesson.cutValue = cut->value;
    lesson.totalVertices = flow.vertexCount();
    lesson.totalEdges = static_cast<int>(flow.edges().size());
    return lesson;
}

} // namespace remat
