// SPDX-License-Identifier: MIT
// dp_knapsack_sliding_hirschberg against PyTorch 2.14 itself: the solver on the item lists
// tests/data/hirschberg/make_cases.py gave 2.14's function, and whole memory-budget plans on the
// programs it traced (saved values of min_cut_rematerialization_partition with that solver).
#include "budget/budget_session.h"
#include "budget/knapsack.h"
#include "conformance_support.h"
#include "graph/error.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <cmath>
#include <cstdlib>

using namespace remat;
using namespace remat::testing;

namespace {

constexpr int kMinItemCases = 200; // make_cases.py writes 200 random lists plus the edge cases
constexpr int kMinGraphs = 6;

QString dataDir()
{
    return QStringLiteral(REMAT_TEST_DATA_DIR "/hirschberg");
}

/// The file's top-level object; fails the test (via QVERIFY in the caller) when missing or bad.
QJsonObject readObject(const QString& name, QString& error)
{
    QFile file(dataDir() + QLatin1Char('/') + name);
    if (!file.open(QIODevice::ReadOnly)) {
        error = file.fileName()
            + QStringLiteral(" is missing: run tests/data/hirschberg/make_cases.py in the 2.14 chroot");
        return {};
    }
    QJsonParseError parse {};
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &parse);
    if (parse.error != QJsonParseError::NoError || !doc.isObject())
        error = file.fileName() + QStringLiteral(": ") + parse.errorString();
    return doc.object();
}

/// float.hex() text, read back exactly.
double hexDouble(const QJsonValue& value)
{
    const QByteArray text = value.toString().toLatin1();
    char* end = nullptr;
    const double d = std::strtod(text.constData(), &end);
    if (text.isEmpty() || end != text.constData() + text.size())
        throw Error("hirschberg data: \"" + text.toStdString() + "\" is not a float.hex() number");
    return d;
}

std::vector<double> hexDoubles(const QJsonValue& value)
{
    std::vector<double> out;
    for (const auto& v : value.toArray())
        out.push_back(hexDouble(v));
    return out;
}

std::vector<int> ints(const QJsonValue& value)
{
    std::vector<int> out;
    for (const auto& v : value.toArray())
        out.push_back(v.toInt(-1));
    return out;
}

std::vector<std::string> strings(const QJsonValue& value)
{
    std::vector<std::string> out;
    for (const auto& v : value.toArray())
        out.push_back(v.toString().toStdString());
    return out;
}

QByteArray listText(const std::vector<int>& list)
{
    QByteArray text = "[";
    for (std::size_t i = 0; i < list.size(); ++i)
        text += (i ? "," : "") + QByteArray::number(list[i]);
    return text + "]";
}

} // namespace

class TestHirschbergKnapsack : public QObject {
    Q_OBJECT

private slots:
    void solverNameRoundTrips()
    {
        QCOMPARE(parseSolver("dp_knapsack_sliding_hirschberg"),
            std::optional(KnapsackSolver::DpSlidingHirschberg));
        QCOMPARE(solverName(KnapsackSolver::DpSlidingHirschberg),
            std::string_view("dp_knapsack_sliding_hirschberg"));
        QCOMPARE(solverChoices(), std::string("dp, greedy, ilp or dp_knapsack_sliding_hirschberg"));
    }

    void profileEstimatorRefused()
    {
        QVERIFY(!parseEstimator("profile"));
        const auto reason = unreproducibleEstimatorReason("profile");
        QVERIFY(reason && reason->find("roofline") != std::string::npos);
        QVERIFY(!unreproducibleEstimatorReason("flops"));
    }

    void refusesWhat2_14CannotIndex()
    {
        const std::vector<double> memory {0.1, -0.2};
        const std::vector<double> runtime {1.0, 2.0};
        QVERIFY_THROWS_EXCEPTION(Error, hirschbergKnapsack(memory, runtime, 0.5));
        QVERIFY_THROWS_EXCEPTION(Error, hirschbergKnapsack(std::vector<double> {0.1}, runtime, 0.5));
        QVERIFY_THROWS_EXCEPTION(Error, hirschbergKnapsack(std::vector<double> {0.1, 0.2}, runtime, -0.5));
    }

    /// Differs from dp where 2.14 differs: the right half gets one unit more than the split
    /// leaves. Capacity 3: item 1 (memory 1) takes split 1, item 0 (memory 3) then gets 3, not 2,
    /// and both are saved (4 units); dp saves item 1 alone. 2.14 does the same ("right-half slack"
    /// in item_cases.json).
    void rightHalfSlack()
    {
        const std::vector<double> memory {0.0003, 0.0001};
        const std::vector<double> runtime {1.0, 2.0};
        const auto ours = hirschbergKnapsack(memory, runtime, 0.0003);
        QCOMPARE(ours.saved, (std::vector<int> {0, 1}));
        QCOMPARE(ours.value, 3.0);
        QCOMPARE(dpKnapsack(memory, runtime, 0.0003).saved, (std::vector<int> {1}));
    }

    void itemCasesMatch2_14()
    {
        QString error;
        const QJsonObject doc = readObject(QStringLiteral("item_cases.json"), error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const QJsonArray cases = doc.value(QLatin1String("cases")).toArray();
        QVERIFY2(cases.size() >= kMinItemCases, "item_cases.json has too few cases");
        int matched = 0, differFromDp = 0;
        QStringList failures;
        for (const auto& entry : cases) {
            const QJsonObject c = entry.toObject();
            const QString name = c.value(QLatin1String("name")).toString();
            const auto memory = hexDoubles(c.value(QLatin1String("memory")));
            const auto runtime = hexDoubles(c.value(QLatin1String("runtime")));
            const double maxMemory = hexDouble(c.value(QLatin1String("max_memory")));
            const double value = hexDouble(c.value(QLatin1String("value")));
            const auto saved = ints(c.value(QLatin1String("saved")));
            const auto recomputable = ints(c.value(QLatin1String("recomputable")));
            const KnapsackResult ours = hirschbergKnapsack(memory, runtime, maxMemory);
            if (maxMemory >= 0 && dpKnapsack(memory, runtime, maxMemory).saved != saved)
                ++differFromDp;
            const bool sameValue = std::abs(ours.value - value) <= 1e-6 * std::max(1.0, std::abs(value));
            if (ours.saved == saved && ours.recomputed == recomputable && sameValue) {
                ++matched;
                continue;
            }
            failures << QStringLiteral(
                "%1: saved %2 (2.14 %3), recomputable %4 (2.14 %5), value %6 (2.14 %7)")
                            .arg(name, listText(ours.saved), listText(saved), listText(ours.recomputed),
                                listText(recomputable))
                            .arg(ours.value)
                            .arg(value);
        }
        qInfo("%d of %lld item cases identical to 2.14 (dp saves another set in %d)", matched,
            static_cast<long long>(cases.size()), differFromDp);
        QVERIFY2(failures.isEmpty(), qPrintable(failures.mid(0, 10).join(QLatin1Char('\n'))));
    }

    void graphCasesMatch2_14()
    {
        QString error;
        const QJsonObject doc = readObject(QStringLiteral("graph_cases.json"), error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const QJsonArray graphs = doc.value(QLatin1String("graphs")).toArray();
        QVERIFY2(graphs.size() >= kMinGraphs, "graph_cases.json has too few graphs");
        int budgets = 0, knapsackBudgets = 0, differFromDp = 0;
        for (const auto& entry : graphs) {
            const QJsonObject g = entry.toObject();
            const QString path = dataDir() + QLatin1Char('/') + g.value(QLatin1String("graph")).toString();
            PartitionOptions options;
            options.rules = RuleSet::Torch214;
            BudgetOptions budgetOptions;
            budgetOptions.solver = KnapsackSolver::DpSlidingHirschberg;
            const JointGraph& graph = loadedOnce(path);
            const BudgetSession session(graph, options, budgetOptions);
            const QJsonObject byBudget = g.value(QLatin1String("budgets")).toObject();
            QVERIFY2(!byBudget.isEmpty(), qPrintable(path + QStringLiteral(": no budgets")));
            for (auto it = byBudget.begin(); it != byBudget.end(); ++it) {
                const double budget = it.key().toDouble();
                const QJsonObject expected = it.value().toObject();
                const auto theirs = strings(expected.value(QLatin1String("saved_values")));
                const BudgetedPlan plan = session.plan(budget);
                const auto ours = names(graph, plan.result.savedValues);
                const QByteArray where = (path + QStringLiteral(" budget ") + it.key()).toUtf8();
                QVERIFY2(sorted(ours) == sorted(theirs), where + ": " + setDifference(ours, theirs));
                // The solver ran exactly where 2.14's did.
                const bool called = expected.value(QLatin1String("knapsack_calls")).toInt() > 0;
                QVERIFY2(called == (plan.stage == BudgetStage::Knapsack), where + ": knapsack stage differs");
                ++budgets;
                knapsackBudgets += called ? 1 : 0;
                differFromDp += theirs != strings(expected.value(QLatin1String("dp_saved_values"))) ? 1 : 0;
            }
        }
        qInfo(
            "%d graph budgets identical to 2.14 (%d through the knapsack; %d where hirschberg and dp differ)",
            budgets, knapsackBudgets, differFromDp);
        QVERIFY2(knapsackBudgets > 0, "no graph budget reached the knapsack: the graph cases test nothing");
    }
};

QTEST_GUILESS_MAIN(TestHirschbergKnapsack)
#include "tst_hirschbergknapsack.moc"
