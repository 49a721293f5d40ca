// SPDX-License-Identifier: MIT
// Conformance on our own graphs traced by PyTorch 2.14.1 (tests/data/torch2_extra, made by its
// make_graphs.py): dynamic shapes with saved sym nodes, input and buffer mutation, views and
// aliasing, and memory budgets under the greedy solver and the testing estimator. Same checks as
// tst_conformance_torch2: min-cut, default_partition and every recorded budget.
#include "budget/budget_session.h"
#include "budget/knapsack.h"
#include "budget/runtime_estimator.h"
#include "conformance_support.h"
#include "explain/recorded_comparison.h"
#include "graph/error.h"
#include "io/joint_graph_reader.h"
#include "partition/partitioner.h"

#include <QDir>
#include <QTest>

#include <map>
#include <memory>
#include <optional>
#include <tuple>

using namespace remat;
using namespace remat::testing;

namespace {

constexpr int kExpectedGraphs = 14; // make_graphs.py's PROGRAMS
constexpr int kExpectedSolverRecords = 80; // 5 programs x 8 budgets x {greedy, testing}
constexpr std::string_view kBudgetPrefix = "memory_budget_";

QString dataDir()
{
    return QStringLiteral(REMAT_TEST_DATA_DIR "/torch2_extra");
}

QStringList dataFiles()
{
    return jsonFilesIn(dataDir());
}

/// make_graphs.py's categories, told apart by the file-name prefixes.
QString categoryOf(const QString& path)
{
    const QString name = QFileInfo(path).completeBaseName();
    for (const auto& [prefix, category] : {std::pair {"dyn_", "dynamic"}, std::pair {"mut_", "mutation"},
             std::pair {"views_", "views"}, std::pair {"solvers_", "solvers"}}) {
        if (name.startsWith(QLatin1String(prefix)))
            return QString::fromLatin1(category);
    }
    return QStringLiteral("unknown");
}

/// A recording's key, read: "min_cut", "default", or a budget with its solver and estimator
/// ("memory_budget_0.5" dp/flops, "memory_budget_0.5_greedy", "memory_budget_0.5_testing").
struct Recording {
    QString kind; ///< min_cut, default, budgets, budgets_greedy, budgets_testing
    std::optional<double> budget;
    BudgetOptions options;
};

std::optional<Recording> readKey(const std::string& key)
{
    if (key == "min_cut" || key == "default")
        return Recording {QString::fromStdString(key), std::nullopt, {}};
    if (!key.starts_with(kBudgetPrefix))
        return std::nullopt;
    const QString rest = QString::fromStdString(key.substr(kBudgetPrefix.size()));
    const auto parts = rest.split(QLatin1Char('_'));
    bool ok = false;
    Recording r {QStringLiteral("budgets"), parts.front().toDouble(&ok), {}};
    if (!ok || parts.size() > 2)
        return std::nullopt;
    if (parts.size() == 2) {
        if (parts[1] == QLatin1String("greedy"))
            r.options.solver = KnapsackSolver::Greedy;
        else if (parts[1] == QLatin1String("testing"))
            r.options.estimator = RuntimeEstimatorKind::Testing;
        else
            return std::nullopt;
        r.kind += QLatin1Char('_') + parts[1];
    }
    return r;
}

const BudgetSession& budgetSession(const QString& path, const BudgetOptions& budgetOptions)
{
    static std::map<std::tuple<QString, KnapsackSolver, RuntimeEstimatorKind>, std::unique_ptr<BudgetSession>>
        cache;
    auto& slot = cache[{path, budgetOptions.solver, budgetOptions.estimator}];
    if (!slot) {
        PartitionOptions options;
        options.rules = RuleSet::Torch214;
        slot = std::make_unique<BudgetSession>(loadedOnce(path), options, budgetOptions);
    }
    return *slot;
}

} // namespace

class TestConformanceTorch2Extra : public QObject {
    Q_OBJECT

private slots:
    void dataIsThere()
    {
        const auto files = dataFiles();
        QVERIFY2(files.size() == kExpectedGraphs,
            qPrintable(QStringLiteral("expected %1 graphs made by make_graphs.py in %2, found %3")
                           .arg(kExpectedGraphs)
                           .arg(dataDir())
                           .arg(files.size())));
        int solverRecords = 0;
        int symbolicNodes = 0;
        for (const QString& path : files) {
            QVERIFY2(categoryOf(path) != QLatin1String("unknown"),
                qPrintable(path + QStringLiteral(": no category")));
            const JointGraph& graph = loadedOnce(path);
            QVERIFY2(graph.recordedTorchVersion().starts_with("2.14."), graph.recordedTorchVersion().c_str());
            for (const char* key : {"min_cut", "memory_budget_0", "memory_budget_0.25", "memory_budget_0.5",
                     "memory_budget_0.75"})
                QVERIFY2(graph.recordedPartition(key), qPrintable(path + QStringLiteral(": no ") + key));
            for (const auto& [key, recording] : graph.recorded()) {
                QVERIFY2(key == "torch_version" || readKey(key),
                    qPrintable(path + QStringLiteral(": unknown recording ") + QString::fromStdString(key)));
                if (const auto r = readKey(key); r && r->kind.startsWith(QLatin1String("budgets_")))
                    ++solverRecords;
            }
            for (NodeId n = 0; n < NodeId(graph.size()); ++n)
                symbolicNodes += graph.node(n).valueKind == ValueKind::Symbolic;
            // The dynamic graphs exist to check saved sym nodes: each must save some.
            if (categoryOf(path) == QLatin1String("dynamic"))
                QVERIFY2(!graph.recordedPartition("min_cut")->savedSymNodes.empty(), qPrintable(path));
        }
        QCOMPARE(solverRecords, kExpectedSolverRecords);
        QVERIFY2(symbolicNodes > 0, "no graph has SymInt values");
    }

    void matchesPyTorch214_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("recorded");
        for (const QString& path : dataFiles()) {
            const QString name = QFileInfo(path).completeBaseName();
            QTest::addRow("%s/default", qPrintable(name)) << path << QStringLiteral("default");
            for (const auto& [key, recording] : loadedOnce(path).recorded()) {
                if (key != "default" && readKey(key))
                    QTest::addRow("%s/%s", qPrintable(name), key.c_str())
                        << path << QString::fromStdString(key);
            }
        }
    }

    void matchesPyTorch214()
    {
        QFETCH(QString, path);
        QFETCH(QString, recorded);
        const auto recording = readKey(recorded.toStdString());
        QVERIFY(recording);
        Tally& tally = tallies()[categoryOf(path) + QLatin1Char('/') + recording->kind];
        ++tally.run;
        const JointGraph& graph = loadedOnce(path);
        const RecordedPartition* expected = graph.recordedPartition(recorded.toStdString());

        PartitionResult result;
        try {
            if (recording->budget) {
                result = budgetSession(path, recording->options).plan(*recording->budget).result;
            } else {
                PartitionOptions options;
                options.rules = RuleSet::Torch214;
                options.partitioner = recording->kind == QLatin1String("default") ? PartitionerKind::Default
                                                                                  : PartitionerKind::MinCut;
                result = partitionGraph(graph, options);
            }
        } catch (const Error& e) {
            if (!expected && recording->kind == QLatin1String("default")) { // 2.14 raised too
                ++tally.passed;
                return;
            }
            QFAIL(e.what());
        }
        QVERIFY2(expected, "2.14 recorded no decision here (it refused), but ours partitioned the graph");

        const QByteArray difference
            = differenceFromRecorded(graph, result, *expected, recording->kind == QLatin1String("min_cut"));
        QVERIFY2(difference.isEmpty(), difference.constData());
        // The comparison the command line and the app show picks this very recording, the solver's
        // or estimator's own record for those (memory_budget_<b>_greedy), never the dp/flops one.
        const std::string variant
            = recording->budget ? budgetRecordVariant(recording->options) : std::string();
        const auto comparison = compareWithRecorded(graph, result, recording->budget, variant);
        QVERIFY2(comparison && comparison->plan.key == recorded.toStdString(),
            missingRecordedPlanMessage(graph, result.options, recording->budget, variant).c_str());
        QVERIFY2(comparison->identical(), describeDifferences(graph, *comparison).c_str());
        ++tally.passed;
    }

    void cleanupTestCase() { printTallies(); }
};

QTEST_GUILESS_MAIN(TestConformanceTorch2Extra)
#include "tst_conformance_torch2_extra.moc"
