// SPDX-License-Identifier: MIT
#include "layout/graphviz_layout.h"

#include "layout/edge_shapes.h"
#include "model/atomic_write.h"

#include <QElapsedTimer>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <string>

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

namespace remat::ui {
namespace {

// Graphviz's accessors are C macros with C casts; keep them in one place.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wold-style-cast"
pointf nodeCentre(Agnode_t* n)
{
    return ND_coord(n);
}
const splines* edgeSplines(Agedge_t* e)
{
    return ED_spl(e);
}
boxf graphBox(Agraph_t* g)
{
    return GD_bb(g);
}
#pragma GCC diagnostic pop

constexpr double kPointsPerInch = 72.0;

/// cgraph wants mutable char* for names and values; these keep the strings alive.
void set(void* object, const char* name, const std::string& value)
{
    std::string n(name);
    std::string v(value);
    std::string empty;
    agsafeset(object, n.data(), v.data(), empty.data());
}

void declare(Agraph_t* g, int kind, const char* name, const char* value)
{
    std::string n(name);
    std::string v(value);
    agattr(g, kind, n.data(), v.data());
}

std::string inches(double sceneUnits)
{
    return std::to_string(sceneUnits / kPointsPerInch);
}

struct GraphvizContext {
    std::mutex mutex;
    GVC_t* gvc = nullptr;

    GraphvizContext()
    {
        agseterr(AGERR); // no warnings on stderr ("nodes too close", ...)
        gvc = gvContext();
    }
};

GraphvizContext& context()
{
    static GraphvizContext instance; // never freed: plugins stay loaded for the whole run
    return instance;
}

} // namespace

LayoutResult layoutWithGraphviz(const LayoutRequest& request)
{
    LayoutResult result;
    if (request.boxes.empty())
        return result;
    const bool useDot = request.boxes.size() <= kDotLimit;
    const bool big = request.boxes.size() > 1500;
    // On big pictures the forward-to-backward edges make dot crawl (4.3k nodes: minutes, and
    // Graphviz 2.43 then crashed): dot places the two arms alone, and we draw those edges.
    const bool routeAcrossOurselves = big;
    result.engine = useDot
        ? (big ? QStringLiteral("dot, two arms, nslimit") : QStringLiteral("dot, U-shaped"))
        : QStringLiteral("sfdp, overlap removal");

    GraphvizContext& gv = context();
    const std::lock_guard lock(gv.mutex);
    QElapsedTimer timer;
    timer.start();

    std::string graphName("joint");
    Agraph_t* g = agopen(graphName.data(), Agdirected, nullptr);
    declare(g, AGNODE, "shape", "box");
    declare(g, AGNODE, "fixedsize", "true");
    declare(g, AGNODE, "label", "");
    declare(g, AGNODE, "width", "1");
    declare(g, AGNODE, "height", "0.5");
    declare(g, AGEDGE, "dir", "forward");
    declare(g, AGEDGE, "constraint", "true");
    declare(g, AGEDGE, "arrowsize", "0.7");
    declare(g, AGRAPH, "label", "");
    declare(g, AGRAPH, "fontsize", "14");
    if (useDot) {
        set(g, "rankdir", "TB");
        set(g, "nodesep", "0.22");
        set(g, "ranksep", "0.34");
        set(g, "splines", "spline");
        if (big) {
            // Network simplex dominates on big joint graphs; these limits keep 5k nodes near 4 s.
            set(g, "nslimit", "0.02");
            set(g, "nslimit1", "0.02");
            set(g, "mclimit", "0.3");
        }
    } else {
        set(g, "overlap", "prism");
        set(g, "splines", "false");
        set(g, "sep", "+6");
    }

    // Clusters may name parents that come later in the list: create parents first.
    std::vector<Agraph_t*> clusters(request.clusters.size(), nullptr);
    std::function<Agraph_t*(std::size_t)> cluster = [&](std::size_t c) -> Agraph_t* {
        if (clusters[c])
            return clusters[c];
        const int parent = request.clusters[c].parent;
        Agraph_t* owner = parent >= 0 ? cluster(static_cast<std::size_t>(parent)) : g;
        std::string name = "cluster_" + std::to_string(c);
        Agraph_t* sub = agsubg(owner, name.data(), 1);
        clusters[c] = sub;
        if (!request.clusters[c].visible) {
            set(sub, "margin", "2");
            return sub;
        }
        // A blank label of the header's height makes dot keep room for our title.
        set(sub, "label", " ");
        set(sub, "fontsize", std::to_string(std::max(request.clusters[c].headerHeight * 0.8, 1.0)));
        set(sub, "labeljust", "l");
        set(sub, "margin", "10");
        return sub;
    };
    for (std::size_t c = 0; c < request.clusters.size(); ++c)
        cluster(c);

    std::vector<Agnode_t*> nodes(request.boxes.size(), nullptr);
    for (std::size_t i = 0; i < request.boxes.size(); ++i) {
        const LayoutBox& box = request.boxes[i];
        std::string name = "n" + std::to_string(i);
        Agnode_t* n = agnode(g, name.data(), 1);
        set(n, "width", inches(box.width));
        set(n, "height", inches(box.height));
        if (box.cluster >= 0)
            agsubnode(clusters[static_cast<std::size_t>(box.cluster)], n, 1);
        nodes[i] = n;
    }

    std::vector<Agedge_t*> edges(request.links.size(), nullptr);
    for (std::size_t i = 0; i < request.links.size(); ++i) {
        const LayoutLink& link = request.links[i];
        Agnode_t* from = nodes[static_cast<std::size_t>(link.from)];
        Agnode_t* to = nodes[static_cast<std::size_t>(link.to)];
        if (link.role == EdgeRole::Across && routeAcrossOurselves)
            continue;
        if (link.role == EdgeRole::Up) {
            // The backward runs upwards: rank it reversed, draw the arrow at the tail.
            edges[i] = agedge(g, to, from, nullptr, 1);
            set(edges[i], "dir", "back");
        } else {
            edges[i] = agedge(g, from, to, nullptr, 1);
            if (link.role == EdgeRole::Across)
                set(edges[i], "constraint", "false");
        }
    }

    // REMAT_DUMP_DOT=file.dot writes the graph as handed to Graphviz (to reproduce layout bugs with
    // the dot command line).
    // Written whole through a memory stream, like every file we write.
    if (const QByteArray dump = qgetenv("REMAT_DUMP_DOT"); !dump.isEmpty()) {
        char* text = nullptr;
        std::size_t size = 0;
        if (FILE* f = open_memstream(&text, &size)) {
            agwrite(g, f);
            std::fclose(f);
            if (const QString error = writeFileAtomic(
                    QString::fromLocal8Bit(dump), QByteArray(text, static_cast<qsizetype>(size)));
                !error.isEmpty())
                qWarning("REMAT_DUMP_DOT: %s", qPrintable(error));
            std::free(text);
        }
    }
    if (gvLayout(gv.gvc, g, useDot ? "dot" : "sfdp") != 0) {
        agclose(g);
        throw std::runtime_error("Graphviz could not lay out the graph");
    }

    const boxf bb = graphBox(g);
    auto toScene = [&bb](pointf p) { return QPointF(p.x - bb.LL.x, bb.UR.y - p.y); };
    result.boxes.resize(nodes.size());
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        const LayoutBox& box = request.boxes[i];
        const QPointF c = toScene(nodeCentre(nodes[i]));
        result.boxes[i] = QRectF(c.x() - box.width / 2, c.y() - box.height / 2, box.width, box.height);
    }
    result.clusters.resize(clusters.size());
    for (std::size_t c = 0; c < clusters.size(); ++c) {
        const boxf cb = graphBox(clusters[c]);
        result.clusters[c] = QRectF(toScene(cb.LL), toScene(cb.UR)).normalized();
    }
    result.edges.resize(edges.size());
    for (std::size_t i = 0; i < edges.size(); ++i) {
        const LayoutLink& link = request.links[i];
        if (!edges[i]) {
            result.edges[i] = acrossEdge(result.boxes[static_cast<std::size_t>(link.from)],
                result.boxes[static_cast<std::size_t>(link.to)]);
            continue;
        }
        const splines* spl = useDot ? edgeSplines(edges[i]) : nullptr;
        if (!spl || spl->size == 0) {
            result.edges[i] = straightEdge(result.boxes[static_cast<std::size_t>(link.from)],
                result.boxes[static_cast<std::size_t>(link.to)]);
            continue;
        }
        EdgeGeometry& e = result.edges[i];
        const bezier& bz = spl->list[0];
        for (int k = 0; k < bz.size; ++k)
            e.curve.push_back(toScene(bz.list[k]));
        if (link.role == EdgeRole::Up) {
            std::reverse(e.curve.begin(), e.curve.end());
            e.arrowTip = bz.sflag ? toScene(bz.sp) : e.curve.back();
        } else {
            e.arrowTip = bz.eflag ? toScene(bz.ep) : e.curve.back();
        }
    }
    result.bounds = QRectF(0, 0, bb.UR.x - bb.LL.x, bb.UR.y - bb.LL.y);
    gvFreeLayout(gv.gvc, g);
    agclose(g);
    result.seconds = static_cast<double>(timer.nsecsElapsed()) * 1e-9;
    return result;
}

} // namespace remat::ui
