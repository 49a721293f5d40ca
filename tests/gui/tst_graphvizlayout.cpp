// SPDX-License-Identifier: MIT
// Graphviz in process: the U shape, splines, clusters, and the layout cache.
#include "gui_test_support.h"
#include "io/graph_loader.h"
#include "layout/composed_layout.h"
#include "layout/graphviz_layout.h"
#include "layout/layout_cache.h"
#include "layout/layout_check.h"
#include "layout/view_graph.h"
#include "model/loaded_graph.h"

#include <QTest>

#include <numeric>

using namespace remat;
using namespace remat::ui;

class TestGraphvizLayout : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { test::isolate(); }

    void backwardRunsUpBesideTheForward()
    {
        const auto path = test::samplePath("mlp.json");
        const LoadedGraphPtr loaded = analyseGraph(loadGraphFile(path.toStdString()), path);
        const ViewGraph view = buildViewGraph(*loaded, {});
        const LayoutRequest request = layoutRequestFor(*loaded, view);
        const LayoutResult layout = layoutWithGraphviz(request);
        QCOMPARE(layout.boxes.size(), request.boxes.size());
        QCOMPARE(layout.edges.size(), request.links.size());

        double forwardX = 0, backwardX = 0;
        int forward = 0, backward = 0;
        for (std::size_t i = 0; i < view.items.size(); ++i) {
            QVERIFY(layout.bounds.contains(layout.boxes[i]));
            if (view.items[i].isGroup)
                continue;
            const Region r = loaded->region(view.items[i].id);
            if (r == Region::Forward) {
                forwardX += layout.boxes[i].center().x();
                ++forward;
            } else if (r == Region::Backward) {
                backwardX += layout.boxes[i].center().x();
                ++backward;
            }
        }
        QVERIFY(forward > 0 && backward > 0);
        QVERIFY2(std::abs(forwardX / forward - backwardX / backward) > 100,
            "forward and backward are side by side");

        for (std::size_t e = 0; e < view.edges.size(); ++e) {
            const EdgeGeometry& g = layout.edges[e];
            QVERIFY(g.curve.size() >= 4);
            QCOMPARE(g.curve.size() % 3, std::size_t(1));
            // Drawn from source to target, whichever way dot ranked it.
            const QRectF from
                = layout.boxes[static_cast<std::size_t>(view.edges[e].from)].adjusted(-8, -8, 8, 8);
            const QRectF to = layout.boxes[static_cast<std::size_t>(view.edges[e].to)].adjusted(-8, -8, 8, 8);
            QVERIFY(from.contains(g.curve.front()));
            QVERIFY(to.contains(g.arrowTip));
            if (view.edges[e].role == EdgeRole::Down)
                QVERIFY(g.arrowTip.y() > g.curve.front().y());
            if (view.edges[e].role == EdgeRole::Up)
                QVERIFY(g.arrowTip.y() < g.curve.front().y());
        }
    }

    void clustersFrameTheirMembers()
    {
        LayoutRequest request;
        request.clusters = {{-1, 24}};
        request.boxes = {{100, 40, 0}, {100, 40, 0}, {100, 40, -1}};
        request.links = {{0, 1, EdgeRole::Down}, {1, 2, EdgeRole::Down}};
        const LayoutResult layout = layoutWithGraphviz(request);
        QCOMPARE(layout.clusters.size(), std::size_t(1));
        QVERIFY(layout.clusters[0].contains(layout.boxes[0]));
        QVERIFY(layout.clusters[0].contains(layout.boxes[1]));
        QVERIFY(!layout.clusters[0].contains(layout.boxes[2]));
        QVERIFY2(layout.boxes[0].top() - layout.clusters[0].top() >= 20, "room for the frame's title");
    }

    void repeatedBlocksAreLaidOutOnceAndComposed()
    {
        const QString path = test::oraclePath("gpt_n24.json");
        QVERIFY2(QFile::exists(path), qPrintable(path + QStringLiteral(" is missing")));
        const LoadedGraphPtr loaded = analyseGraph(loadGraphFile(path.toStdString()), path);
        const ViewGraph view = buildViewGraph(*loaded, std::vector<char>(loaded->groups.groups.size(), 1));
        const LayoutRequest request = layoutRequestFor(*loaded, view);
        QVERIFY(shouldCompose(view));
        const ComposedPlan plan = planComposedLayout(*loaded, view, request);
        qInfo("gpt_n24 expanded: %zu boxes in %zu groups of %zu distinct shapes", request.boxes.size(),
            plan.units.size(), plan.shapes.size());
        QVERIFY2(plan.shapes.size() * 4 < plan.units.size(), "the 24 identical blocks share their layouts");

        std::vector<LayoutResult> shapes;
        for (const LayoutRequest& shape : plan.shapes)
            shapes.push_back(layoutWithGraphviz(shape));
        const LayoutResult layout = composeLayout(plan, request, shapes);
        QCOMPARE(layoutMismatch(request, layout), QString());

        // Forward down the left, backward up the right: what the forward saves crosses the gap
        // rightwards to its backward, beside it.
        std::size_t across = 0, rightwards = 0;
        for (std::size_t i = 0; i < view.items.size(); ++i)
            QVERIFY(layout.bounds.contains(layout.boxes[i]));
        for (const LayoutLink& link : request.links) {
            if (link.role != EdgeRole::Across)
                continue;
            ++across;
            const QRectF& from = layout.boxes[static_cast<std::size_t>(link.from)];
            const QRectF& to = layout.boxes[static_cast<std::size_t>(link.to)];
            rightwards += to.left() - from.right() > 100 && to.left() - from.right() < 1500 ? 1 : 0;
        }
        qInfo("%zu of %zu forward-to-backward edges cross the gap to the right", rightwards, across);
        QVERIFY(across > 0 && rightwards * 100 >= across * 95);
        // Each frame holds its members, and no two boxes overlap.
        for (std::size_t i = 0; i < view.items.size(); ++i) {
            for (int c = request.boxes[i].cluster; c >= 0;
                 c = request.clusters[static_cast<std::size_t>(c)].parent)
                QVERIFY(layout.clusters[static_cast<std::size_t>(c)].contains(layout.boxes[i]));
        }
        // Frames are nested or apart, never overlapping (a range never spans two columns).
        for (std::size_t a = 0; a < view.clusters.size(); ++a) {
            for (std::size_t b = a + 1; b < view.clusters.size(); ++b) {
                const QRectF& ra = layout.clusters[a];
                const QRectF& rb = layout.clusters[b];
                QVERIFY2(!ra.intersects(rb) || ra.contains(rb) || rb.contains(ra), "frames overlap");
            }
        }
        std::vector<std::size_t> byTop(view.items.size());
        std::iota(byTop.begin(), byTop.end(), std::size_t(0));
        std::sort(byTop.begin(), byTop.end(),
            [&](auto a, auto b) { return layout.boxes[a].top() < layout.boxes[b].top(); });
        for (std::size_t k = 0; k < byTop.size(); ++k) {
            const QRectF& a = layout.boxes[byTop[k]];
            for (std::size_t j = k + 1; j < byTop.size() && layout.boxes[byTop[j]].top() < a.bottom(); ++j)
                QVERIFY2(!a.adjusted(1, 1, -1, -1).intersects(layout.boxes[byTop[j]]), "boxes overlap");
        }
        // Forward blocks follow in graph order: down a column, then on to the next column.
        std::vector<std::pair<NodeId, QPointF>> forwardFrames;
        for (std::size_t c = 0; c < view.clusters.size(); ++c) {
            const Group& g = loaded->groups.group(view.clusters[c].group);
            if (g.side == Side::Forward && g.children.empty())
                forwardFrames.emplace_back(g.members.front(), layout.clusters[c].topRight());
        }
        std::sort(forwardFrames.begin(), forwardFrames.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
        for (std::size_t k = 1; k < forwardFrames.size(); ++k) {
            const QPointF& before = forwardFrames[k - 1].second;
            const QPointF& after = forwardFrames[k].second;
            QVERIFY2(after.x() > before.x() + 100
                    || (std::abs(after.x() - before.x()) < 100 && after.y() > before.y()),
                "reading order");
        }
    }

    void cacheRoundTripsThroughDisk()
    {
        QTemporaryDir dir;
        LayoutRequest request;
        request.boxes = {{100, 40, -1}, {120, 40, -1}};
        request.links = {{0, 1, EdgeRole::Across}};
        const LayoutResult layout = layoutWithGraphviz(request);
        const QByteArray key = request.fingerprint();
        {
            LayoutCache cache(dir.path());
            QVERIFY(!cache.find(request));
            cache.store(request, layout);
        }
        LayoutCache fresh(dir.path());
        const auto back = fresh.find(request);
        QVERIFY(back);
        QCOMPARE(back->boxes, layout.boxes);
        QCOMPARE(back->edges.size(), layout.edges.size());
        QCOMPARE(back->edges[0].curve, layout.edges[0].curve);
        request.boxes[0].width = 101;
        QVERIFY(request.fingerprint() != key);
    }
};

QTEST_MAIN(TestGraphvizLayout)
#include "tst_graphvizlayout.moc"
