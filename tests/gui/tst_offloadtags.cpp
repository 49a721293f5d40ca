// SPDX-License-Identifier: MIT
// CPU-offload tags in the app: the tag menu offers them with a key, the canvas draws them in their
// own colour (and the legend names it), and with activation offloading on the plan offloads them.
#include "canvas/canvas_legend.h"
#include "canvas/canvas_palette.h"
#include "canvas/graph_canvas.h"
#include "canvas/graph_scene.h"
#include "document/graph_document.h"
#include "gui_test_support.h"
#include "main_window_test_support.h"
#include "window/main_window.h"
#include "window/tag_actions.h"

#include <QAction>
#include <QFile>
#include <QPainter>
#include <QStyleOptionGraphicsItem>
#include <QTemporaryDir>
#include <QTest>

using namespace remat;
using namespace remat::ui;
using namespace remat::ui::test;

namespace {

int pixelsOf(const QImage& image, const QColor& colour)
{
    int count = 0;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x)
            count += image.pixelColor(x, y).rgb() == colour.rgb() ? 1 : 0;
    }
    return count;
}

} // namespace

class TestOffloadTags : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { test::isolate(); }

    void offloadColourIsItsOwn()
    {
        const CanvasPalette p = CanvasPalette::defaults();
        QCOMPARE(p.tagColour(CheckpointPolicy::MustCpuOffload), p.tagOffload);
        QCOMPARE(p.tagColour(CheckpointPolicy::PreferCpuOffload), p.tagOffload);
        for (const QColor& other :
            {p.tagSave, p.tagRecompute, p.saved, p.recomputed, p.banned, p.producers, p.consumers})
            QVERIFY(other != p.tagOffload);
    }

    void tagMenuOffersOffloadWithKeys()
    {
        TagActions actions(nullptr);
        QStringList keys;
        for (QAction* a : actions.actions())
            keys << a->shortcut().toString();
        QVERIFY2(keys.contains(QStringLiteral("O")), qPrintable(keys.join(QLatin1Char(' '))));
        QVERIFY(keys.contains(QStringLiteral("Shift+O")));
    }

    void offloadTagShowsOnCanvasAndInThePlan()
    {
        const QString source = QStringLiteral(REMAT_TEST_DATA_DIR "/offload/offload_conv_bn.json");
        QVERIFY2(QFile::exists(source), qPrintable(source + QStringLiteral(" is missing")));
        QTemporaryDir dir;
        const QString path = test::copyInto(dir, source);
        QVERIFY(QFile::exists(path));

        MainWindow w;
        QVERIFY(openAndWait(w, path, QSize(1200, 800)));
        GraphDocument* doc = w.document();
        doc->setPartitionSettings(PartitionerKind::MinCut, RuleSet::Torch214, doc->compiler());
        QTRY_VERIFY_WITH_TIMEOUT(idle(w) && doc->outcome()->options.rules == RuleSet::Torch214, kTimeoutMs);

        // mean: untagged in the file; the tag chip appears in the offload colour.
        const NodeId mean = doc->graph()->graph.find("mean");
        QVERIFY(mean != kNoNode);
        const QColor offload = CanvasPalette::defaults().tagOffload;
        QCOMPARE(pixelsOf(renderBox(w.canvas()->scene(), mean), offload), 0);
        QCOMPARE(doc->tagNodes({mean}, CheckpointPolicy::MustCpuOffload), 1);
        QTRY_VERIFY_WITH_TIMEOUT(idle(w), kTimeoutMs);
        QVERIFY(pixelsOf(renderBox(w.canvas()->scene(), mean), offload) > 20);

        // The legend names the colour.
        CanvasLegend* legend = w.canvas()->legend();
        legend->setFolded(false);
        QVERIFY(pixelsOf(legend->grab().toImage(), offload) > 20);

        // Activation offloading on: the file's offload-tagged saved values go to the host, as 2.14's pass.
        QVERIFY(doc->outcome()->result->offloaded.empty());
        doc->setActivationOffloading(true);
        QTRY_VERIFY_WITH_TIMEOUT(idle(w) && doc->outcome()->options.config.activationOffloading, kTimeoutMs);
        const auto& result = *doc->outcome()->result;
        std::vector<std::string> names;
        for (NodeId n : result.offloaded)
            names.push_back(doc->graph()->graph.node(n).name);
        QCOMPARE(names, (std::vector<std::string> {"convolution", "relu", "relu_1"}));
        QVERIFY(result.offloadedBytes > 0);

        // The setting is the user's, kept in the project file with the tags.
        QVERIFY(doc->saveProject());
        MainWindow again;
        again.setInteractive(false);
        again.openFile(path);
        QTRY_VERIFY_WITH_TIMEOUT(idle(again), kTimeoutMs);
        QVERIFY(again.document()->activationOffloading());
        QVERIFY(again.document()->outcome()->options.config.activationOffloading);
    }
};

QTEST_MAIN(TestOffloadTags)
#include "tst_offloadtags.moc"
