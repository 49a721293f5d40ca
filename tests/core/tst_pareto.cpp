// SPDX-License-Identifier: MIT
// The dense Pareto sweep: every plan change found, frontier flags, threads, progress, cancel.
#include "budget/budget_io.h"
#include "budget/pareto.h"
#include "budget_test_support.h"

#include <QTest>

#include <atomic>
#include <cmath>
#include <limits>
#include <random>
#include <thread>

using namespace remat;

class TestPareto : public QObject {
    Q_OBJECT

private slots:
    void everyPlanChangeIsFound()
    {
        const JointGraph graph = loadGraphFile(testing::testAcPath("matmul_uneven_chain_3_5_11_17_14.json"));
        const BudgetSession session(graph, {}, {});
        ParetoOptions options;
        options.points = 11;
        const ParetoResult result = sweepPareto(session, options);
        QVERIFY(!result.cancelled);
        QVERIFY(result.points.size() >= 8);
        QCOMPARE(result.points.front().budget, 0.0);
        QCOMPARE(result.points.back().budgetMax, 1.0);
        QCOMPARE(result.runtimeUnit, std::string("flops"));
        for (std::size_t i = 1; i < result.points.size(); ++i) {
            const auto& before = result.points[i - 1];
            const auto& after = result.points[i];
            QVERIFY(before.budgetMax < after.budget);
            QVERIFY2(after.budget - before.budgetMax <= options.resolution, "a change left unresolved");
        }
        // Each point is the plan of the budgets it spans.
        for (const auto& p : result.points) {
            for (double budget : {p.budget, p.budgetMax}) {
                const BudgetedPlan plan = session.plan(budget, MemorySimulationOptions {false, false});
                QCOMPARE(plan.metrics.activationBytes, p.metrics.activationBytes);
                QCOMPARE(plan.metrics.estimatedRuntime, p.metrics.estimatedRuntime);
                QCOMPARE(plan.metrics.peakBytes, p.metrics.peakBytes);
                QCOMPARE(static_cast<int>(plan.result.savedValues.size()), p.savedCount);
            }
        }
    }

    void snapshotsGrowToTheSameResult()
    {
        // A view draws the plans as they arrive: a coarse curve first, then more in every round,
        // and the same sweep in the end as without snapshots.
        const JointGraph graph = loadGraphFile(testing::oraclePath("gpt_n2.json"));
        const BudgetSession session(graph, {}, {});
        const ParetoResult plain = sweepPareto(session, {});
        std::vector<ParetoResult> snapshots;
        ParetoOptions options;
        options.snapshot = [&](const ParetoResult& r) { snapshots.push_back(r); };
        const ParetoResult streamed = sweepPareto(session, options);
        QVERIFY(snapshots.size() >= 3);
        QVERIFY(snapshots.front().budgetsEvaluated <= 11);
        for (std::size_t i = 1; i < snapshots.size(); ++i)
            QVERIFY(snapshots[i].budgetsEvaluated > snapshots[i - 1].budgetsEvaluated);
        QCOMPARE(snapshots.back().points.size(), streamed.points.size());
        QCOMPARE(streamed.budgetsEvaluated, plain.budgetsEvaluated);
        QCOMPARE(streamed.points.size(), plain.points.size());
        for (std::size_t i = 0; i < plain.points.size(); ++i) {
            QCOMPARE(*streamed.points[i].saved, *plain.points[i].saved);
            QCOMPARE(streamed.points[i].budget, plain.points[i].budget);
            QCOMPARE(streamed.points[i].onFrontier, plain.points[i].onFrontier);
        }
    }

    void frontierFlags()
    {
        const JointGraph graph = loadGraphFile(testing::oraclePath("gpt_n2.json"));
        const BudgetSession session(graph, {}, {});
        const ParetoResult result = sweepPareto(session, {});
        const auto dominates = [](const ParetoPoint& a, const ParetoPoint& b) {
            return a.metrics.activationBytes <= b.metrics.activationBytes
                && a.metrics.estimatedRuntime <= b.metrics.estimatedRuntime
                && (a.metrics.activationBytes < b.metrics.activationBytes
                    || a.metrics.estimatedRuntime < b.metrics.estimatedRuntime);
        };
        int onFrontier = 0;
        for (const auto& p : result.points) {
            const bool dominated = std::any_of(
                result.points.begin(), result.points.end(), [&](const auto& q) { return dominates(q, p); });
            QCOMPARE(p.onFrontier, !dominated);
            onFrontier += p.onFrontier;
            QVERIFY(p.metrics.peakBytes.has_value());
        }
        QVERIFY(onFrontier >= 2);
    }

    void frontierOfTiesAndUnorderedRuntimes()
    {
        // Every pair compared, as the flag is defined: equal bytes or runtimes, infinities, -0, NaN.
        const double inf = std::numeric_limits<double>::infinity();
        const double runtimes[] = {0.0, -0.0, 1.0, 2.0, inf, std::nan("")};
        const auto dominates = [](const ParetoPoint& a, const ParetoPoint& b) {
            return a.metrics.activationBytes <= b.metrics.activationBytes
                && a.metrics.estimatedRuntime <= b.metrics.estimatedRuntime
                && (a.metrics.activationBytes < b.metrics.activationBytes
                    || a.metrics.estimatedRuntime < b.metrics.estimatedRuntime);
        };
        std::mt19937 random(7);
        for (int trial = 0; trial < 2000; ++trial) {
            std::vector<ParetoPoint> points(random() % 9);
            const std::size_t kinds = trial % 10 == 0 ? 6 : 5;
            for (auto& p : points) {
                p.metrics.activationBytes = random() % 4;
                p.metrics.estimatedRuntime = runtimes[random() % kinds];
            }
            markFrontier(points);
            for (const auto& p : points) {
                const bool dominated = std::any_of(
                    points.begin(), points.end(), [&](const auto& q) { return dominates(q, p); });
                QCOMPARE(p.onFrontier, !dominated);
            }
        }
    }

    void threadsDoNotChangeTheResult()
    {
        const JointGraph graph = loadGraphFile(testing::oraclePath("gpt_n2.json"));
        const BudgetSession session(graph, {}, {});
        ParetoOptions one;
        one.threads = 1;
        ParetoOptions four;
        four.threads = 4;
        const ParetoResult a = sweepPareto(session, one);
        const BudgetSession other(graph, {}, {});
        const ParetoResult b = sweepPareto(other, four);
        QCOMPARE(paretoToCsv(a), paretoToCsv(b));
    }

    void progressIsSerialAndCancelStops()
    {
        const JointGraph graph = loadGraphFile(testing::oraclePath("gpt_n8.json"));
        const BudgetSession session(graph, {}, {});
        std::atomic<bool> cancel {false};
        std::atomic<int> inside {0};
        bool overlapped = false;
        int calls = 0;
        int lastEvaluated = 0;
        bool increasing = true;
        ParetoOptions options;
        options.threads = 2;
        options.cancel = &cancel;
        options.progress = [&](const ParetoProgress& p) {
            overlapped = overlapped || inside.fetch_add(1) != 0;
            std::this_thread::yield();
            ++calls;
            increasing = increasing && p.evaluated > lastEvaluated; // no QVERIFY off the test thread
            lastEvaluated = p.evaluated;
            if (p.evaluated >= 40)
                cancel = true;
            inside.fetch_sub(1);
        };
        const ParetoResult result = sweepPareto(session, options);
        QVERIFY(!overlapped);
        QVERIFY(increasing);
        QVERIFY(result.cancelled);
        QVERIFY(result.budgetsEvaluated < 101);
        QVERIFY(calls >= 40);
    }

    void csvHasOneRowPerPoint()
    {
        const JointGraph graph = loadGraphFile(testing::testAcPath("matmul_even_chain.json"));
        const BudgetSession session(graph, {}, {});
        const ParetoResult result = sweepPareto(session, {});
        const std::string csv = paretoToCsv(result);
        QVERIFY(csv.starts_with(
            "budget,budget_max,activation_bytes,estimated_runtime,peak_bytes,on_frontier,saved_count"));
        QCOMPARE(
            static_cast<std::size_t>(std::count(csv.begin(), csv.end(), '\n')), result.points.size() + 1);
        QVERIFY(paretoToJson(graph, result).find("\"on_frontier\"") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestPareto)
#include "tst_pareto.moc"
