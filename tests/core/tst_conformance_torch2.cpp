// SPDX-License-Identifier: MIT
// Conformance: on every graph PyTorch 2.14.1 traced (../shared/oracle/torch2), our torch-2.14 rules
// make the decisions 2.14 recorded: min-cut, default_partition and every activation memory budget.
#include "budget/budget_session.h"
#include "conformance_support.h"
#include "explain/recorded_comparison.h"
#include "graph/error.h"
#include "io/joint_graph_reader.h"
#include "partition/partitioner.h"

#include <QDir>
#include <QTest>

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <set>

using namespace remat;
using namespace remat::testing;

namespace {

constexpr int kExpectedGraphs = 52; // the oracle README's table
constexpr const char* kBudgetPrefix = "memory_budget_";

QString oracleDir()
{
    return QStringLiteral(REMAT_SHARED_DIR "/oracle/torch2");
}

QStringList oracleFiles()
{
    return jsonFilesIn(oracleDir());
}

/// The oracle README's categories, told apart by the generators' file-name prefixes.
QString categoryOf(const QString& path)
{
    const QString name = QFileInfo(path).completeBaseName();
    if (name.startsWith(QLatin1String("hf_")) || name.startsWith(QLatin1String("tv_")))
        return QStringLiteral("models");
    if (name.startsWith(QLatin1String("sac_")))
        return QStringLiteral("sac");
    if (name.startsWith(QLatin1String("offload_")))
        return QStringLiteral("offload");
    if (name.startsWith(QLatin1String("rand_")))
        return QStringLiteral("random");
    return QStringLiteral("unknown");
}

const BudgetSession& budgetSession(const QString& path)
{
    // 2.14's defaults: the dp solver and the flops estimator.
    static std::map<QString, std::unique_ptr<BudgetSession>> cache;
    auto& slot = cache[path];
    if (!slot) {
        PartitionOptions options;
        options.rules = RuleSet::Torch214;
        slot = std::make_unique<BudgetSession>(loadedOnce(path), options, BudgetOptions {});
    }
    return *slot;
}

QString recordingKind(const QString& recorded)
{
    return recorded.startsWith(QLatin1String(kBudgetPrefix)) ? QStringLiteral("budgets") : recorded;
}

} // namespace

class TestConformanceTorch2 : public QObject {
    Q_OBJECT

private slots:
    void oracleIsThere()
    {
        const auto files = oracleFiles();
        QVERIFY2(files.size() >= kExpectedGraphs,
            qPrintable(QStringLiteral("expected %1 graphs traced by PyTorch 2.14 in %2, found %3")
                           .arg(kExpectedGraphs)
                           .arg(oracleDir())
                           .arg(files.size())));
        for (const QString& path : files)
            QVERIFY2(categoryOf(path) != QLatin1String("unknown"),
                qPrintable(path + QStringLiteral(": no category")));
    }

    void recordedBy214_data()
    {
        QTest::addColumn<QString>("path");
        for (const QString& path : oracleFiles())
            QTest::addRow("%s", qPrintable(QFileInfo(path).completeBaseName())) << path;
    }
    void recordedBy214()
    {
        // Every file must carry 2.14's min-cut and its four budgets: a missing recording fails.
        QFETCH(QString, path);
        const JointGraph& graph = loadedOnce(path);
        QVERIFY2(graph.recordedTorchVersion().starts_with("2.14."), graph.recordedTorchVersion().c_str());
        for (const char* key :
            {"min_cut", "memory_budget_0", "memory_budget_0.25", "memory_budget_0.5", "memory_budget_0.75"})
            QVERIFY2(graph.recordedPartition(key), key);
    }

    void matchesPyTorch214_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("recorded");
        for (const QString& path : oracleFiles()) {
            const QString name = QFileInfo(path).completeBaseName();
            QTest::addRow("%s/min_cut", qPrintable(name)) << path << QStringLiteral("min_cut");
            QTest::addRow("%s/default", qPrintable(name)) << path << QStringLiteral("default");
            for (const auto& [key, recording] : loadedOnce(path).recorded()) {
                if (key.starts_with(kBudgetPrefix))
                    QTest::addRow("%s/%s", qPrintable(name), key.c_str())
                        << path << QString::fromStdString(key);
            }
        }
    }

    void matchesPyTorch214()
    {
        QFETCH(QString, path);
        QFETCH(QString, recorded);
        Tally& tally = tallies()[categoryOf(path) + QLatin1Char('/') + recordingKind(recorded)];
        ++tally.run;
        const JointGraph& graph = loadedOnce(path);
        const RecordedPartition* expected = graph.recordedPartition(recorded.toStdString());

        PartitionResult result;
        std::optional<double> budget;
        try {
            if (recorded.startsWith(QLatin1String(kBudgetPrefix))) {
                bool ok = false;
                budget = recorded.mid(int(std::string_view(kBudgetPrefix).size())).toDouble(&ok);
                QVERIFY2(ok, "the recording's key names no budget");
                result = budgetSession(path).plan(*budget).result;
            } else {
                PartitionOptions options;
                options.rules = RuleSet::Torch214;
                options.partitioner = recorded == QLatin1String("default") ? PartitionerKind::Default
                                                                           : PartitionerKind::MinCut;
                result = partitionGraph(graph, options);
            }
        } catch (const Error& e) {
            // 2.14 recorded no default partition where its own default_partition raised: so must ours.
            if (!expected && recorded == QLatin1String("default")) {
                ++tally.passed;
                return;
            }
            QFAIL(e.what());
        }
        QVERIFY2(
            expected, "the oracle records no decision here (2.14 refused), but ours partitioned the graph");

        const QByteArray difference
            = differenceFromRecorded(graph, result, *expected, recorded == QLatin1String("min_cut"));
        QVERIFY2(difference.isEmpty(), difference.constData());
        // The comparison the command line and the app show picks this very recording: identical.
        const auto comparison = compareWithRecorded(graph, result, budget);
        QVERIFY2(comparison && comparison->plan.key == recorded.toStdString(),
            missingRecordedPlanMessage(graph, result.options, budget).c_str());
        QVERIFY2(comparison->identical(), describeDifferences(graph, *comparison).c_str());
        ++tally.passed;
    }

    void cleanupTestCase() { printTallies(); }
};

QTEST_GUILESS_MAIN(TestConformanceTorch2)
#include "tst_conformance_torch2.moc"
