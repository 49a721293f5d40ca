// SPDX-License-Identifier: MIT
// The teaching view: five steps from the core's own network and cut, drawn by Graphviz's dot;
// the cut it shows saves what the partitioner saves; a big graph is taught on a selected region.
#include "gui_test_support.h"
#include "io/graph_loader.h"
#include "partition/partitioner.h"
#include "teaching/teaching_window.h"

#include <QGraphicsView>
#include <QRegularExpression>
#include <QScrollBar>
#include <QTest>
#include <QThreadPool>

using namespace remat;
using namespace remat::ui;

namespace {

LoadedGraphPtr open(const char* oracleName)
{
    return analyseGraph(
        loadGraphFile(test::oraclePath(oracleName).toStdString()), test::oraclePath(oracleName));
}

PartitionOptions newestMinCut()
{
    PartitionOptions options;
    options.rules = RuleSet::Newest;
    return options;
}

} // namespace

class TestTeachingWindow : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { test::isolate(); }

    void fiveStepsOnASmallGraph()
    {
        const LoadedGraphPtr graph = open("mlp3_relu.json");
        TeachingWindow window;
        window.show();
        window.teach(graph, newestMinCut(), {});
        QTRY_VERIFY_WITH_TIMEOUT(window.lesson() && window.pictureShown(), 60000);
        const Lesson& lesson = *window.lesson();
        QCOMPARE(lesson.error, QString());
        QCOMPARE(lesson.steps.size(), std::size_t {5});
        for (const LessonStep& step : lesson.steps) {
            QVERIFY(!step.title.isEmpty() && !step.text.isEmpty());
            QVERIFY(step.dot.startsWith(QStringLiteral("digraph")));
        }
        // The cut step names exactly the values the partitioner saves.
        const PartitionResult result = partitionGraph(graph->graph, newestMinCut());
        for (NodeId n : result.savedValues)
            QVERIFY2(lesson.steps[3].text.contains(graph->label(n).name), qPrintable(graph->label(n).name));
        QVERIFY(lesson.steps[3].text.contains(QString::number(*result.cutValue)));
        // Every step renders (dot runs as a child process).
        for (int step = 0; step < 5; ++step) {
            window.showStep(step);
            QTRY_VERIFY_WITH_TIMEOUT(window.pictureShown(), 60000);
            QVERIFY(window.stepText().contains(
                lesson.steps[static_cast<std::size_t>(step)].title.toHtmlEscaped()));
        }
    }

    /// Busy until the lesson is in the window, not only until the worker has built it: a headless
    /// --teach --screenshot polled isBusy() between the two and found no lesson (seen under ASan).
    void busyUntilTheLessonArrives()
    {
        const LoadedGraphPtr graph = open("mlp3_relu.json");
        TeachingWindow window;
        window.teach(graph, newestMinCut(), {});
        QThreadPool::globalInstance()->waitForDone(); // built, but its signal not yet delivered
        QVERIFY(!window.lesson());
        QVERIFY(window.isBusy());
        QTRY_VERIFY_WITH_TIMEOUT(!window.isBusy(), 60000);
        QVERIFY(window.lesson() && window.lesson()->error.isEmpty());
    }

    /// A torch 1.13 file is taught under the 1.13 rules, as its canvas is partitioned: the lesson
    /// once drew the newest network, whose cut saved other values than the canvas showed.
    void aTorch113GraphIsTaughtUnderItsRules()
    {
        const QString path = test::samplePath("mlp.json"); // the two rule sets save other values here
        const LoadedGraphPtr graph = analyseGraph(loadGraphFile(path.toStdString()), path);
        const PartitionOptions torch113; // the default rules
        QCOMPARE(torch113.rules, RuleSet::Torch113);
        TeachingWindow window;
        window.teach(graph, torch113, {});
        QTRY_VERIFY_WITH_TIMEOUT(window.lesson(), 60000);
        const Lesson& lesson = *window.lesson();
        QCOMPARE(lesson.error, QString());
        QCOMPARE(lesson.rules, QStringLiteral("torch-1.13"));
        const PartitionResult result = partitionGraph(graph->graph, torch113);
        QVERIFY(result.savedValues != partitionGraph(graph->graph, newestMinCut()).savedValues);
        for (NodeId n : result.savedValues)
            QVERIFY2(lesson.steps[3].text.contains(graph->label(n).name), qPrintable(graph->label(n).name));
        QVERIFY(lesson.steps[3].text.contains(QString::number(*result.cutValue)));
    }

    /// A network larger than the view opens at its top, where the source is, rather than in its
    /// middle (a tangle of edges that told nothing).
    void aLargePictureOpensAtItsTop()
    {
        const QString path = test::samplePath("transformer_block.json");
        const LoadedGraphPtr graph = analyseGraph(loadGraphFile(path.toStdString()), path);
        TeachingWindow window;
        window.resize(1200, 800);
        window.show();
        window.teach(graph, PartitionOptions {}, {});
        QTRY_VERIFY_WITH_TIMEOUT(window.lesson() && window.pictureShown(), 60000);
        window.showStep(2); // the flow network
        QTRY_VERIFY_WITH_TIMEOUT(window.pictureShown(), 60000);
        auto* view = window.findChild<QGraphicsView*>();
        QVERIFY(view);
        QVERIFY2(view->verticalScrollBar()->maximum() > 0, "the picture is taller than the view");
        const QRectF shown = view->mapToScene(view->viewport()->rect()).boundingRect();
        QVERIFY2(shown.top() <= view->sceneRect().top() + 1, "the view shows the picture's top");
        QVERIFY2(view->transform().m11() >= 0.65, "legible, not shrunk to a third");
    }

    /// The backward's nodes (and those tagged to be recomputed) are drawn inside the sink, which
    /// says how many: drawn, they filled one rank above the sink (mlp3_relu: 23 vertices in a row).
    void nodesComputedInTheBackwardAreDrawnInsideTheSink()
    {
        const LoadedGraphPtr graph = open("mlp3_relu.json");
        TeachingWindow window;
        window.teach(graph, newestMinCut(), {});
        QTRY_VERIFY_WITH_TIMEOUT(window.lesson(), 60000);
        const Lesson& lesson = *window.lesson();
        QCOMPARE(lesson.error, QString());
        for (const std::size_t step : {std::size_t {2}, std::size_t {3}}) {
            const QString& dot = lesson.steps[step].dot;
            QVERIFY2(!dot.contains(QStringLiteral("\"tangents_1_in\"")), "a backward node is not drawn");
            QVERIFY(!dot.contains(QStringLiteral("\"threshold_backward_in\"")));
            QVERIFY(dot.contains(QStringLiteral("relu_out"))); // a forward value the backward reads
            const QRegularExpressionMatch said
                = QRegularExpression(QStringLiteral("The (\\d+) nodes that must be computed in the backward"))
                      .match(lesson.steps[step].text);
            QVERIFY(said.hasMatch() && said.captured(1).toInt() >= 10);
            QVERIFY(dot.contains(QStringLiteral("sink\n(the backward,\n%1 nodes)").arg(said.captured(1))));
        }
    }

    /// A network far wider than deep runs left to right and opens at a scale whose text can be
    /// read: sac_conv_save_conv (every value recomputed, 29 weights) was one row 60 vertices wide,
    /// shown at a third of its size. mlp3_relu keeps the joint graph's top-to-bottom shape.
    void aWideShallowNetworkRunsLeftToRight()
    {
        TeachingWindow window;
        window.resize(1200, 800);
        window.show();
        window.teach(open("torch2/sac_conv_save_conv.json"), newestMinCut(), {});
        QTRY_VERIFY_WITH_TIMEOUT(window.lesson() && window.pictureShown(), 60000);
        QCOMPARE(window.lesson()->error, QString());
        QVERIFY(window.lesson()->steps[2].dot.contains(QStringLiteral("rankdir=LR")));
        window.showStep(2);
        QTRY_VERIFY_WITH_TIMEOUT(window.pictureShown(), 60000);
        auto* view = window.findChild<QGraphicsView*>();
        QVERIFY(view);
        QVERIFY2(view->transform().m11() >= 0.65, qPrintable(QString::number(view->transform().m11())));

        window.teach(open("mlp3_relu.json"), newestMinCut(), {});
        QTRY_VERIFY_WITH_TIMEOUT(window.lesson() && window.lesson()->steps.size() == 5, 60000);
        QVERIFY(window.lesson()->steps[2].dot.contains(QStringLiteral("rankdir=TB")));
    }

    /// Step 5 draws the backward's inputs (saved values, tangents) in a row at its top, as in
    /// PyTorch's backward graph, each saved value linked to its forward copy; past ten saved
    /// values the links are left out and the text says so (sac_conv_save_conv's 26 were a wall).
    void theBackwardsInputsHeadItsGraph()
    {
        TeachingWindow window;
        const LoadedGraphPtr mlp = open("mlp3_relu.json");
        window.teach(mlp, newestMinCut(), {});
        QTRY_VERIFY_WITH_TIMEOUT(window.lesson() && window.lesson()->steps.size() == 5, 60000);
        const QString few = window.lesson()->steps[4].dot;
        const QRegularExpressionMatch top
            = QRegularExpression(QStringLiteral("\\{ rank=same;([^}]*)\\}")).match(few);
        QVERIFY2(top.hasMatch(), "the backward's inputs share its top rank");
        const NodeId tangent = mlp->graph.find("tangents_1");
        QVERIFY(tangent != kNoNode);
        QVERIFY(top.captured(1).contains(QStringLiteral(" n%1b;").arg(tangent)));
        const PartitionResult result = partitionGraph(mlp->graph, newestMinCut());
        QVERIFY(!result.savedValues.empty() && result.savedValues.size() <= 10);
        for (NodeId n : result.savedValues)
            QVERIFY(top.captured(1).contains(QStringLiteral(" n%1b;").arg(n)));
        QCOMPARE(
            few.count(QStringLiteral("label=\"saved\"")), static_cast<qsizetype>(result.savedValues.size()));

        window.teach(open("torch2/sac_conv_save_conv.json"), newestMinCut(), {});
        QTRY_VERIFY_WITH_TIMEOUT(window.lesson() && window.lesson()->steps.size() == 5, 60000);
        const LessonStep& many = window.lesson()->steps[4];
        QVERIFY(!many.dot.contains(QStringLiteral("label=\"saved\"")));
        QVERIFY2(many.text.contains(QStringLiteral("without an arrow")), qPrintable(many.text));
    }

    void bigGraphNeedsARegion()
    {
        const LoadedGraphPtr graph = open("gpt_n8.json");
        TeachingWindow window;
        window.teach(graph, newestMinCut(), {});
        QTRY_VERIFY_WITH_TIMEOUT(window.lesson(), 60000);
        QVERIFY(window.lesson()->error.contains(QStringLiteral("select a region")));
        // One block's nodes: taught on that region.
        const NodeId mm = graph->graph.find("mm");
        QVERIFY(mm != kNoNode);
        const int g = graph->groups.leafGroup(mm);
        QVERIFY(g >= 0);
        const Group& block = graph->groups.group(g);
        QVERIFY(block.members.size() <= kLessonMaxNodes);
        window.teach(graph, newestMinCut(), block.members);
        QTRY_VERIFY_WITH_TIMEOUT(window.lesson() && window.pictureShown(), 60000);
        QCOMPARE(window.lesson()->error, QString());
        QVERIFY(window.lesson()->scope.contains(QStringLiteral("selected")));
    }
};

QTEST_MAIN(TestTeachingWindow)
#include "tst_teachingwindow.moc"
