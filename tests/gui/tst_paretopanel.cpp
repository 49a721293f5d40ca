// SPDX-License-Identifier: MIT
// The Budget Trade-off dock: the sweep fills in off the GUI thread, the points are the core's own
// sweep, a click switches the canvas to that plan, the marker follows the budget slider, and the
// plot exports as PNG, SVG, PDF and CSV.
#include "budget/budget_session.h"
#include "gui_test_support.h"
#include "main_window_test_support.h"
#include "model/budget_outcome.h"
#include "panels/pareto_panel.h"
#include "panels/partition_panel.h"
#include "plots/pareto_plot.h"
#include "window/main_window.h"

#include <QComboBox>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTest>
#include <qcustomplot.h>

using namespace remat;
using namespace remat::ui;
using namespace remat::ui::test;

namespace {

bool sweptAndIdle(const MainWindow& w)
{
    const ParetoSnapshotPtr s = w.paretoPanel()->plot()->snapshot();
    return idle(w) && s && s->finished;
}

int labelCount(const QCustomPlot* plot)
{
    int count = 0;
    for (int i = 0; i < plot->itemCount(); ++i)
        count += qobject_cast<QCPItemText*>(plot->item(i)) != nullptr;
    return count;
}

/// After a replot: the first label of a point in view that runs off the plot or into another, or
/// nothing.
QString labelsApartInside(QCustomPlot* plot)
{
    plot->replot(QCustomPlot::rpImmediateRefresh);
    const QRectF inside = plot->axisRect()->rect();
    QList<std::pair<QString, QRectF>> boxes;
    for (int i = 0; i < plot->itemCount(); ++i) {
        const auto* label = qobject_cast<QCPItemText*>(plot->item(i));
        if (label && inside.contains(label->position->pixelPosition())) { // zoomed out of view: hidden
            const QMargins pad = label->padding(); // invisible: only the text itself counts
            const QRectF box = QRectF(label->topLeft->pixelPosition(), label->bottomRight->pixelPosition())
                                   .adjusted(pad.left(), pad.top(), -pad.right(), -pad.bottom());
            if (!inside.contains(box))
                return label->text() + QStringLiteral(" runs off the plot");
            for (const auto& [text, other] : boxes) {
                if (other.intersects(box))
                    return label->text() + QStringLiteral(" runs into ") + text;
            }
            boxes.append({label->text(), box});
        }
    }
    return {};
}

/// A finished sweep of `count` plans along a curve: less memory, more recompute.
ParetoSnapshotPtr curveSnapshot(int count)
{
    auto s = std::make_shared<ParetoSnapshot>();
    s->finished = true;
    s->result.runtimeUnit = "flops";
    for (int i = 0; i < count; ++i) {
        ParetoPoint p;
        p.budget = double(i) / count;
        p.budgetMax = double(i + 1) / count - 1e-9;
        p.metrics.activationBytes = std::int64_t(1000 + 40 * i) << 20;
        p.metrics.peakBytes = p.metrics.activationBytes + (std::int64_t(300) << 20);
        p.metrics.estimatedRuntime = 1e9 * (count - i) * (count - i);
        p.onFrontier = true;
        s->result.points.push_back(p);
    }
    return s;
}

} // namespace

class TestParetoPanel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { test::isolate(); }

    void sweepIsTheCoresAndClickSwitchesThePlan()
    {
        MainWindow w;
        QVERIFY(openAndWait(w, test::samplePath("transformer_block.json")));
        ParetoPanel* panel = w.paretoPanel();
        QVERIFY(!panel->plot()->snapshot()); // min-cut: the sweep waits to be asked
        // No numbers on empty axes: they would be QCustomPlot's default range, not memory or time.
        QVERIFY(!panel->plot()->plot()->xAxis->tickLabels() && !panel->plot()->plot()->yAxis->tickLabels());

        QSignalSpy snapshots(panel->sweeper(), &ParetoSweeper::snapshot);
        QVERIFY(chooseBudgetPartitioner(w)); // the budget partitioner sweeps by itself
        QTRY_VERIFY_WITH_TIMEOUT(sweptAndIdle(w), kTimeoutMs);
        QVERIFY2(snapshots.count() >= 3, "points arrive in rounds, not all at the end");
        QVERIFY(panel->plot()->plot()->xAxis->tickLabels() && panel->plot()->plot()->yAxis->tickLabels());
        const ParetoResult& swept = panel->plot()->snapshot()->result;

        // The same plans as the core's own sweep of this graph.
        const BudgetSession session(
            w.document()->graph()->graph, w.document()->partitionOptions(), BudgetOptions {});
        const ParetoResult expected = sweepPareto(session);
        QCOMPARE(swept.points.size(), expected.points.size());
        for (std::size_t i = 0; i < expected.points.size(); ++i) {
            QCOMPARE(*swept.points[i].saved, *expected.points[i].saved);
            QCOMPARE(swept.points[i].metrics.peakBytes, expected.points[i].metrics.peakBytes);
            QCOMPARE(swept.points[i].onFrontier, expected.points[i].onFrontier);
        }
        QVERIFY(swept.points.size() > 5);

        // The lowest simulated peak is marked and said.
        const int low = panel->plot()->lowestPeakPoint();
        QVERIFY(low >= 0);
        for (const ParetoPoint& p : swept.points)
            QVERIFY(*p.metrics.peakBytes >= *swept.points[static_cast<std::size_t>(low)].metrics.peakBytes);
        QVERIFY(panel->statusText().contains(QStringLiteral("Lowest simulated peak")));
        QVERIFY(panel->plot()->describePoint(low).contains(QStringLiteral("simulated peak")));
        // With the budgets it holds at, as `pareto` lists them: one budget (a bisection's 6.1e-07
        // on a graph where every budget above 0 gives the plan) read as the only one.
        const ParetoPoint& lowest = swept.points[static_cast<std::size_t>(low)];
        const QString budgets = lowest.budgetMax > lowest.budget
            ? QStringLiteral("budgets %1 to %2")
                  .arg(lowest.budget, 0, 'g', 3)
                  .arg(lowest.budgetMax, 0, 'g', 3)
            : QStringLiteral("budget %1").arg(lowest.budget, 0, 'g', 3);
        QVERIFY2(panel->statusText().contains(QStringLiteral(" at %1").arg(budgets)),
            qPrintable(panel->statusText()));
        bool labelled = false;
        for (int i = 0; i < panel->plot()->plot()->itemCount(); ++i) {
            if (const auto* label = qobject_cast<QCPItemText*>(panel->plot()->plot()->item(i)))
                labelled |= label->text().startsWith(QStringLiteral("lowest peak"))
                    && label->text().endsWith(QStringLiteral("(%1)").arg(budgets));
        }
        QVERIFY(labelled);
        QVERIFY2(!panel->statusText().contains(QStringLiteral("in 0.00 s")), qPrintable(panel->statusText()));

        // The legend sits beside the plot and hides no point (inside, a short dock's legend did).
        QCustomPlot* plot = panel->plot()->plot();
        plot->replot(QCustomPlot::rpImmediateRefresh);
        const QRect legend = plot->legend->outerRect();
        QVERIFY(plot->legend->visible() && !legend.isEmpty());
        QVERIFY(!legend.intersects(plot->axisRect()->rect()));
        for (int i = 0; i < static_cast<int>(swept.points.size()); ++i) {
            for (bool peak : {false, true})
                QVERIFY(!legend.contains(panel->plot()->pixelOf(i, peak).toPoint()));
        }

        // Clicking the lowest-peak point switches the canvas and tables to that plan.
        panel->plot()->setSeries(ParetoPlot::Series::Peak);
        plot->replot(QCustomPlot::rpImmediateRefresh);
        // On the peak series the star is judged by peak, not by the activations it keeps.
        QVERIFY(!panel->plot()->describePoint(low).contains(QStringLiteral("peak: dominated")));
        const QPoint at = panel->plot()->pixelOf(low, true).toPoint();
        const int picked = panel->plot()->pointAt(at); // plans may share a pixel: any of them
        QVERIFY(picked >= 0);
        const ParetoPoint& target = swept.points[static_cast<std::size_t>(picked)];
        QCOMPARE(*target.metrics.peakBytes, *swept.points[static_cast<std::size_t>(low)].metrics.peakBytes);
        QTest::mouseClick(plot, Qt::LeftButton, {}, at);
        QTRY_VERIFY_WITH_TIMEOUT(idle(w) && w.document()->outcome()->budget
                && w.document()->outcome()->budget->plan->budget == target.budget,
            kTimeoutMs);
        QCOMPARE(w.document()->outcome()->result->savedValues, *target.saved);
        QCOMPARE(panel->plot()->pointForBudget(w.document()->budgetSettings().budget), picked);

        // The budget slider moves the marker.
        BudgetSettings settings = w.document()->budgetSettings();
        settings.budget = 1.0;
        w.document()->setBudgetSettings(settings);
        QTRY_VERIFY_WITH_TIMEOUT(idle(w) && w.document()->outcome()->budget->plan->budget == 1.0, kTimeoutMs);
        QCOMPARE(panel->plot()->pointForBudget(1.0), static_cast<int>(swept.points.size()) - 1);
    }

    /// A torch-2.14 graph records PyTorch's own plans at budgets 0, 0.25, 0.5 and 0.75: the plot
    /// marks them (they were never shown: the file's key names the budget, not a field), each on
    /// the sweep's plan at its budget, and no point's label runs into another or off the plot.
    void pyTorchsRecordedPlansLieOnTheSweep()
    {
        MainWindow w;
        QVERIFY(openAndWait(w, test::oraclePath("torch2/hf_llama_gqa_train_logits.json"), QSize(1600, 1000)));
        QVERIFY(chooseBudgetPartitioner(w));
        QTRY_VERIFY_WITH_TIMEOUT(sweptAndIdle(w), kTimeoutMs);
        ParetoPlot* plot = w.paretoPanel()->plot();
        const ParetoSnapshotPtr snapshot = plot->snapshot();
        QList<double> budgets;
        for (const auto& r : snapshot->recorded) {
            budgets << r.budget;
            const int point = plot->pointForBudget(r.budget);
            QVERIFY(point >= 0);
            const PlanMetrics& ours = snapshot->result.points[static_cast<std::size_t>(point)].metrics;
            QCOMPARE(r.metrics.activationBytes, ours.activationBytes);
            QCOMPARE(r.metrics.estimatedRuntime, ours.estimatedRuntime);
            QVERIFY(r.metrics.peakBytes); // simulated, so that a plot of peaks sets the cross on its peak
            QCOMPARE(r.metrics.peakBytes, ours.peakBytes);
        }
        QCOMPARE(budgets, (QList<double> {0, 0.25, 0.5, 0.75}));

        QCustomPlot* custom = plot->plot();
        const QString overlap = labelsApartInside(custom);
        QVERIFY2(overlap.isEmpty(), qPrintable(overlap));
        QVERIFY(labelCount(custom) >= 5); // four budgets, or fewer sharing a point, and the lowest peak

        // Hovering a cross explains PyTorch's plan under the sweep's own point there.
        const int quarter = static_cast<int>(budgets.indexOf(0.25));
        const QString tip = plot->toolTipAt(plot->recordedPixel(quarter, false).toPoint());
        QVERIFY2(tip.startsWith(QStringLiteral("<b>budget")), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("<hr><b>PyTorch's recorded memory_budget_0.25</b>")),
            qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("%1 saved")
                                  .arg(snapshot->recorded[static_cast<std::size_t>(quarter)].savedCount)),
            qPrintable(tip));
        QVERIFY2(
            tip.endsWith(QStringLiteral("<i>our plan at 0.25 saves the same values</i>")), qPrintable(tip));

        // Both series shown: each recorded plan is a cross on each, as each of the sweep's plans
        // is a dot on each, and the peak's cross explains the same plan.
        int crosses = -1;
        for (int i = 0; i < custom->graphCount(); ++i) {
            if (custom->graph(i)->name() == QStringLiteral("PyTorch's recorded plans"))
                crosses = custom->graph(i)->dataCount();
        }
        QCOMPARE(crosses, 8);
        const QString peakTip = plot->toolTipAt(plot->recordedPixel(quarter, true).toPoint());
        QVERIFY2(peakTip.contains(QStringLiteral("<b>PyTorch's recorded memory_budget_0.25</b>")),
            qPrintable(peakTip));

        // A plot of peaks alone sets each cross on the sweep's peak at its budget, not on its
        // activation bytes.
        plot->setSeries(ParetoPlot::Series::Peak);
        custom->replot(QCustomPlot::rpImmediateRefresh);
        for (int i = 0; i < static_cast<int>(snapshot->recorded.size()); ++i) {
            const int point = plot->pointForBudget(snapshot->recorded[static_cast<std::size_t>(i)].budget);
            QCOMPARE(plot->recordedPixel(i, true), plot->pixelOf(point, true));
        }
        QVERIFY2(w.paretoPanel()->statusText().contains(QStringLiteral(
                     "PyTorch's 4 recorded plans (crosses) save what ours save at their budgets.")),
            qPrintable(w.paretoPanel()->statusText()));
    }

    /// A plan's budgets as the label and status line give them: one budget, a range, and a range
    /// too narrow to print as two numbers (gpt_n96's lowest peak said "budgets 0.258 to 0.258").
    /// Picking another plan moves the current plan's ring on its own layer: the points (thousands
    /// in a big sweep) are not drawn again, and the picture is the one a full rebuild draws.
    void pickingAPlanMovesTheRingAlone()
    {
        ParetoPlot moved;
        moved.resize(700, 450);
        moved.setSnapshot(curveSnapshot(60));
        moved.setCurrentBudget(0.1);
        QCustomPlot* plot = moved.plot();
        const int graphs = plot->graphCount();
        QCPGraph* firstSeries = plot->graph(0);
        QCPGraph* ring = plot->graph(graphs - 1);
        QCOMPARE(ring->name(), QStringLiteral("current plan"));
        QCOMPARE(ring->layer()->mode(), QCPLayer::lmBuffered);
        moved.grab(); // laid out and drawn, as on screen

        moved.setCurrentBudget(0.8);
        QCOMPARE(plot->graphCount(), graphs);
        QCOMPARE(plot->graph(0), firstSeries); // not rebuilt
        QCOMPARE(plot->graph(graphs - 1), ring);
        const int point = moved.pointForBudget(0.8);
        QCOMPARE(point, 48);
        QCOMPARE(ring->data()->size(), 2); // activations and peak
        const QPointF ringAt(plot->xAxis->coordToPixel(ring->data()->at(0)->key),
            plot->yAxis->coordToPixel(ring->data()->at(0)->value));
        QCOMPARE(ringAt, moved.pixelOf(point, false));

        ParetoPlot rebuilt;
        rebuilt.resize(moved.size());
        rebuilt.setSnapshot(curveSnapshot(60));
        rebuilt.setCurrentBudget(0.8);
        rebuilt.grab();
        QCOMPARE(moved.grab().toImage(), rebuilt.grab().toImage());

        moved.setCurrentBudget(std::nullopt); // the ring and its legend entry go
        QCOMPARE(plot->graphCount(), graphs - 1);
    }

    void budgetsOfAPlanReadAsTheyPrint()
    {
        ParetoPoint p;
        p.budget = p.budgetMax = 0.3;
        QCOMPARE(budgetsOfPlan(p), QStringLiteral("budget 0.3"));
        p.budget = 6.1e-07;
        p.budgetMax = 1;
        QCOMPARE(budgetsOfPlan(p), QStringLiteral("budgets 6.1e-07 to 1"));
        p.budget = 0.2581;
        p.budgetMax = 0.2584;
        QCOMPARE(budgetsOfPlan(p), QStringLiteral("budget 0.258"));
    }

    /// mobilenet's crosses at budget 0.25 and at 0.5 and 0.75 (one point) lie a few pixels apart,
    /// one above the other: their labels were moved apart by x alone, and the second was lifted
    /// onto the first ("PyTorch 0.25" over "PyTorch 0.5, 0.75"). Apart at every size and zoom.
    void labelsOfNearbyCrossesStayApart()
    {
        MainWindow w;
        QVERIFY(
            openAndWait(w, test::oraclePath("torch2/tv_mobilenet_v3_small_eval.json"), QSize(1600, 1000)));
        QVERIFY(chooseBudgetPartitioner(w));
        QTRY_VERIFY_WITH_TIMEOUT(sweptAndIdle(w), kTimeoutMs);
        QCustomPlot* custom = w.paretoPanel()->plot()->plot();
        QCOMPARE(labelCount(custom), 4); // PyTorch 0, 0.25, "0.5, 0.75", and the lowest peak
        QString overlap = labelsApartInside(custom);
        QVERIFY2(overlap.isEmpty(), qPrintable(overlap));
        for (const QSize size : {QSize(1100, 700), QSize(1280, 800)}) {
            w.resize(size);
            QTRY_COMPARE_WITH_TIMEOUT(w.size(), size, 5000);
            overlap = labelsApartInside(custom);
            QVERIFY2(overlap.isEmpty(), qPrintable(overlap));
        }
        custom->xAxis->scaleRange(0.5); // zoomed in: the crosses spread, the labels follow
        overlap = labelsApartInside(custom);
        QVERIFY2(overlap.isEmpty(), qPrintable(overlap));
    }

    /// A record naming a node the graph does not have is left off the plot, and the status says
    /// why; a record that saves other values than our plan at its budget is labelled and counted.
    void recordsThatDoNotFitOrDifferAreSaid()
    {
        QJsonObject root
            = QJsonDocument::fromJson(readFile(test::oraclePath("torch2/hf_llama_gqa_train_logits.json")))
                  .object();
        QJsonObject reference = root.value(QStringLiteral("reference")).toObject();
        const auto record = [&](const char* key) { return reference.value(QLatin1String(key)).toObject(); };
        QJsonObject unknownNode = record("memory_budget_0.25");
        QJsonArray saved = unknownNode.value(QStringLiteral("saved_values")).toArray();
        QVERIFY(!saved.isEmpty());
        saved[0] = QStringLiteral("no_such_node");
        unknownNode.insert(QStringLiteral("saved_values"), saved);
        reference.insert(QStringLiteral("memory_budget_0.25"), unknownNode);
        QJsonObject other = record("memory_budget_0.75"); // budget 0's values, said to be 0.75's
        other.insert(
            QStringLiteral("saved_values"), record("memory_budget_0").value(QStringLiteral("saved_values")));
        reference.insert(QStringLiteral("memory_budget_0.75"), other);
        root.insert(QStringLiteral("reference"), reference);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("llama.json"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QJsonDocument(root).toJson(QJsonDocument::Compact));
        file.close();

        MainWindow w;
        QVERIFY(openAndWait(w, path));
        QVERIFY(chooseBudgetPartitioner(w));
        QTRY_VERIFY_WITH_TIMEOUT(sweptAndIdle(w), kTimeoutMs);
        QCOMPARE(w.paretoPanel()->plot()->snapshot()->recorded.size(), std::size_t {3});
        const QString status = w.paretoPanel()->statusText();
        QVERIFY2(status.contains(QStringLiteral(
                     "1 of PyTorch's 3 recorded plans (crosses) save other values than ours.")),
            qPrintable(status));
        QVERIFY2(status.contains(
                     QStringLiteral("Left off the plot: memory_budget_0.25: saved value 'no_such_node'")),
            qPrintable(status));
        QStringList labels;
        QCustomPlot* custom = w.paretoPanel()->plot()->plot();
        for (int i = 0; i < custom->itemCount(); ++i) {
            if (const auto* label = qobject_cast<QCPItemText*>(custom->item(i)))
                labels << label->text();
        }
        // It saves what budget 0 saves, so it shares budget 0's point and label.
        QVERIFY2(labels.contains(QStringLiteral("PyTorch 0, 0.75 (not ours)")),
            qPrintable(labels.join(QLatin1Char('|'))));

        // Its tooltip says how it differs from our plan at 0.75: what both save is the same set.
        ParetoPlot* plot = w.paretoPanel()->plot();
        custom->replot(QCustomPlot::rpImmediateRefresh);
        const auto& recorded = plot->snapshot()->recorded;
        const auto differing
            = std::find_if(recorded.begin(), recorded.end(), [](const auto& r) { return !r.sameAsOurs; });
        QVERIFY(differing != recorded.end());
        QCOMPARE(differing->budget, 0.75);
        QVERIFY(differing->savedOnlyByOurs > 0 && differing->savedOnlyByPyTorch >= 0);
        const ParetoPoint& ours
            = plot->snapshot()->result.points[static_cast<std::size_t>(plot->pointForBudget(0.75))];
        QCOMPARE(differing->savedCount - differing->savedOnlyByPyTorch,
            ours.savedCount - differing->savedOnlyByOurs);
        const QString tip = plot->toolTipAt(
            plot->recordedPixel(static_cast<int>(differing - recorded.begin()), false).toPoint());
        QVERIFY2(tip.startsWith(QStringLiteral("<b>budget 0</b>")), qPrintable(tip)); // the cross's own point
        QVERIFY2(
            tip.contains(QStringLiteral("<b>PyTorch's recorded memory_budget_0.75</b>")), qPrintable(tip));
        QVERIFY2(
            tip.contains(QStringLiteral("our plan at 0.75 differs: %1 saved only by PyTorch, %2 only by ours")
                             .arg(differing->savedOnlyByPyTorch)
                             .arg(differing->savedOnlyByOurs)),
            qPrintable(tip));
    }

    void clickSwitchesToBudgetModeAndExportsWrite()
    {
        MainWindow w;
        QVERIFY(openAndWait(w, test::samplePath("mlp.json")));
        ParetoPanel* panel = w.paretoPanel();
        QVERIFY(!w.document()->budgetMode());
        panel->sweep(); // on demand for the other partitioners
        QTRY_VERIFY_WITH_TIMEOUT(sweptAndIdle(w), kTimeoutMs);
        QVERIFY(!w.document()->budgetMode());
        Q_EMIT panel->plot()->budgetPicked(0.0);
        QTRY_VERIFY_WITH_TIMEOUT(
            idle(w) && w.document()->budgetMode() && w.document()->outcome()->budget, kTimeoutMs);
        QCOMPARE(w.document()->outcome()->budget->plan->stage, BudgetStage::KeepInputs);

        QTemporaryDir dir;
        for (const char* name : {"p.png", "p.svg", "p.pdf", "p.csv"}) {
            const QString path = dir.filePath(QLatin1String(name));
            QCOMPARE(panel->exportTo(path), QString());
            QVERIFY2(QFile::exists(path), name);
        }
        QImage png(dir.filePath(QStringLiteral("p.png")));
        QVERIFY(!png.isNull() && png.width() > 300);
        QVERIFY(QSvgRenderer(dir.filePath(QStringLiteral("p.svg"))).isValid());
        QVERIFY(readFile(dir.filePath(QStringLiteral("p.pdf"))).startsWith("%PDF"));
        const QByteArray csv = readFile(dir.filePath(QStringLiteral("p.csv")));
        QCOMPARE(
            csv.count('\n'), static_cast<qsizetype>(panel->plot()->snapshot()->result.points.size()) + 1);
        // A folder that does not exist: an error naming the file, nothing written.
        const QString bad = dir.filePath(QStringLiteral("missing/p.png"));
        QVERIFY(panel->exportTo(bad).contains(bad));
    }
};

QTEST_MAIN(TestParetoPanel)
#include "tst_paretopanel.moc"
