// SPDX-License-Identifier: MIT
// Graphviz in process: the U shape, splines, clusters, and the layout cache.
#include "gui_test_support.h"
#include "io/graph_loader.h"
#include "layout/graphviz_layout.h"
#include "layout/layout_cache.h"
#include "layout/view_graph.h"
#include "model/loaded_graph.h"

#include <QTest>

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
        QVERIFY2(std::abs(forwardX / forward - backwardX / backward) > 100, "forward and backward are side by side");

        for (std::size_t e = 0; e < view.edges.size(); ++e) {
            const EdgeGeometry& g = layout.edges[e];
            QVERIFY(g.curve.size() >= 4);
            QCOMPARE(g.curve.size() % 3, std::size_t(1));
            // Drawn from source to target, whichever way dot ranked it.
            const QRectF from = layout.boxes[static_cast<std::size_t>(view.edges[e].from)].adjusted(-8, -8, 8, 8);
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
            QVERIFY(!cache.find(key));
            cache.store(key, layout);
        }
        LayoutCache fresh(dir.path());
        const auto back = fresh.find(key);
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
