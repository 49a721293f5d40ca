// SPDX-License-Identifier: MIT
// Conformance with PyTorch's test/functorch/test_ac.py::MemoryBudgetTest (reference doc 9.2), in
// flops mode, on joint graphs of the same programs made by a real PyTorch
// (tests/data/test_ac/make_test_ac.py; expectations in tests/data/test_ac/expectations.json).
#include "budget/budget_session.h"
#include "budget/flop_counts.h"
#include "budget/storage_aliasing.h"
#include "budget_test_support.h"
#include "partition/partitioner.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <cmath>
#include <map>
#include <memory>

using namespace remat;

namespace {

constexpr double kMiB = 1024.0 * 1024.0;
constexpr double kMatmulUnit = 2.0 * 512 * 512 * 512; // test_ac normalises one 512^3 matmul to 1

/// The test rounds activation memory to 0.1 MiB with Python's round (half to even).
double roundedMiB(std::int64_t bytes)
{
    return std::nearbyint(static_cast<double>(bytes) / kMiB * 10) / 10;
}

QJsonObject expectations()
{
    QFile file(QStringLiteral(REMAT_TEST_DATA_DIR "/test_ac/expectations.json"));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object();
}

struct Loaded {
    JointGraph graph;
    std::unique_ptr<BudgetSession> session;
    PartitionResult eager; ///< eager autograd keeps what the newest default_partition saves
    double eagerRecompute = 0; ///< what eager checkpointing recomputes (test_manual_ac)
};

Loaded& load(const QString& file)
{
    static std::map<QString, std::unique_ptr<Loaded>> cache;
    auto& slot = cache[file];
    if (!slot) {
        slot = std::make_unique<Loaded>();
        slot->graph = loadGraphFile(testing::testAcPath(file.toUtf8().constData()));
        slot->session = std::make_unique<BudgetSession>(slot->graph, PartitionOptions {}, BudgetOptions {});
        PartitionOptions eager;
        eager.rules = RuleSet::Newest;
        eager.partitioner = PartitionerKind::Default;
        slot->eager = partitionGraph(slot->graph, eager);
        for (NodeId n : slot->eager.recomputed)
            slot->eagerRecompute += static_cast<double>(registeredFlops(slot->graph, n).value_or(0));
    }
    return *slot;
}

/// FLOPs the backward recomputes: what test_ac.py counts above eager.
double recomputedFlops(const BudgetSession& session, const PartitionResult& plan)
{
    double flops = 0;
    for (NodeId n : plan.recomputed)
        flops += static_cast<double>(registeredFlops(session.graph(), n).value_or(0));
    return flops;
}

/// Backward FLOPs of eager autograd: every FLOP-counted backward node.
double eagerBackwardFlops(const Loaded& loaded)
{
    double flops = 0;
    const auto& classes = loaded.session->prepared().classes();
    for (NodeId n : loaded.session->prepared().graph().order()) {
        if (classes.isRequiredBw(n))
            flops += static_cast<double>(registeredFlops(loaded.graph, n).value_or(0));
    }
    return (flops + loaded.eagerRecompute) / kMatmulUnit;
}

} // namespace

class TestTestAc : public QObject {
    Q_OBJECT

private slots:
    void dataIsThere()
    {
        QVERIFY2(!expectations().isEmpty(), "tests/data/test_ac/expectations.json is missing");
    }

    void eagerMemoryAndFlops_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<double>("eagerMem");
        QTest::addColumn<double>("eagerFlops");
        const QJsonObject all = expectations();
        for (auto it = all.begin(); it != all.end(); ++it) {
            const QJsonObject e = it.value().toObject();
            if (e.contains(QStringLiteral("eager_mem")))
                QTest::addRow("%s", qPrintable(it.key()))
                    << it.key() << e[QStringLiteral("eager_mem")].toDouble()
                    << e[QStringLiteral("eager_flops")].toDouble(-1);
        }
    }
    void eagerMemoryAndFlops()
    {
        QFETCH(QString, file);
        QFETCH(double, eagerMem);
        QFETCH(double, eagerFlops);
        const Loaded& loaded = load(file);
        const StorageMap& storages = loaded.session->storages();
        QCOMPARE(roundedMiB(distinctStorageBytes(storages, loaded.eager.savedValues)), eagerMem);
        if (eagerFlops >= 0)
            QCOMPARE(eagerBackwardFlops(loaded), eagerFlops);
    }

    void budgets_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<double>("budget");
        QTest::addColumn<QJsonValue>("mem");
        QTest::addColumn<QJsonValue>("extraFlops");
        QTest::addColumn<QString>("recompute");
        const QJsonObject all = expectations();
        for (auto it = all.begin(); it != all.end(); ++it) {
            const QJsonObject e = it.value().toObject();
            for (const auto& b : e[QStringLiteral("budgets")].toArray()) {
                const QJsonObject row = b.toObject();
                const double budget = row[QStringLiteral("budget")].toDouble();
                QTest::addRow("%s @ %g", qPrintable(it.key()), budget)
                    << it.key() << budget << row[QStringLiteral("mem")] << row[QStringLiteral("extra_flops")]
                    << e[QStringLiteral("recompute")].toString();
            }
        }
    }
    void budgets()
    {
        QFETCH(QString, file);
        QFETCH(double, budget);
        QFETCH(QJsonValue, mem);
        QFETCH(QJsonValue, extraFlops);
        QFETCH(QString, recompute);
        const Loaded& loaded = load(file);
        const BudgetedPlan plan = loaded.session->plan(budget);
        const double achieved = roundedMiB(plan.metrics.activationBytes);
        if (mem.isString()) // "eager_mem": the budget must not break the manual checkpoints
            QCOMPARE(achieved,
                roundedMiB(distinctStorageBytes(loaded.session->storages(), loaded.eager.savedValues)));
        else
            QCOMPARE(achieved, mem.toDouble());

        const double extra
            = (recomputedFlops(*loaded.session, plan.result) - loaded.eagerRecompute) / kMatmulUnit;
        if (!extraFlops.isUndefined())
            QCOMPARE(extra, extraFlops.toDouble());
        // The flops estimate is what test_ac counts, plus 1 per recomputed op without a formula.
        QVERIFY(plan.metrics.estimatedRuntime >= extra * kMatmulUnit);

        if (!recompute.isEmpty()) {
            // test_attention_vs_linear: the knapsack recomputes the cheaper of the two.
            const JointGraph& g = loaded.graph;
            const NodeId mm = g.find("mm");
            const NodeId attention = g.find("_scaled_dot_product_efficient_attention");
            QCOMPARE(plan.stage, BudgetStage::Knapsack);
            const auto& allowed = plan.decision.recomputable;
            const bool mmAllowed = std::find(allowed.begin(), allowed.end(), mm) != allowed.end();
            const bool attentionAllowed
                = std::find(allowed.begin(), allowed.end(), attention) != allowed.end();
            QCOMPARE(mmAllowed, recompute == QLatin1String("mm"));
            QCOMPARE(attentionAllowed, recompute == QLatin1String("attention"));
            const double expected
                = static_cast<double>(*registeredFlops(g, recompute == QLatin1String("mm") ? mm : attention));
            QCOMPARE(recomputedFlops(*loaded.session, plan.result), expected);
        }
    }

    void profileEstimatorIsOutOfScope()
    {
        // test_profile benchmarks ops on a GPU ("profile" estimator); in flops mode the same program
        // gives the same answer, which the matmul_even_chain rows above check at budget 0.2.
        const QJsonObject e = expectations()[QStringLiteral("matmul_even_chain.json")].toObject();
        const QJsonObject profile = e[QStringLiteral("profile_estimator")].toObject();
        const Loaded& loaded = load(QStringLiteral("matmul_even_chain.json"));
        const BudgetedPlan plan = loaded.session->plan(profile[QStringLiteral("budget")].toDouble());
        QCOMPARE(roundedMiB(plan.metrics.activationBytes), profile[QStringLiteral("mem")].toDouble());
        QCOMPARE(recomputedFlops(*loaded.session, plan.result) / kMatmulUnit,
            profile[QStringLiteral("extra_flops")].toDouble());
    }
};

QTEST_GUILESS_MAIN(TestTestAc)
#include "tst_testac.moc"
