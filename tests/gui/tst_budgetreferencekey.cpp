// SPDX-License-Identifier: MIT
// The app finds PyTorch's recorded plan for a budget by value: the exporter names them with
// Python's :g ("memory_budget_0"), which is not how we print 0.0.
#include "graph/error.h"
#include "io/file_text.h"
#include "io/graph_loader.h"
#include "model/budget_outcome.h"

#include <QTest>

using namespace remat;
using namespace remat::ui;

class TestBudgetReferenceKey : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void recordedBudgetsAreMatchedByValue()
    {
        std::string text = readFileText(REMAT_TEST_DATA_DIR "/worked_examples/cos_cos.json");
        const std::string anchor = R"("reference":{)";
        const auto at = text.find(anchor);
        QVERIFY(at != std::string::npos);
        text.insert(at + anchor.size(),
            R"("memory_budget_0":{"saved_values":["primals_1"]},)"
            R"("memory_budget_0.25":{"saved_values":["cos"]},)"
            R"("memory_budget_1e-05":{"saved_values":["cos"]},)");
        const JointGraph graph = loadGraphText(text, "cos_cos.json");
        QCOMPARE(budgetReferenceKey(graph, 0.0), QStringLiteral("memory_budget_0"));
        QCOMPARE(budgetReferenceKey(graph, 0.25), QStringLiteral("memory_budget_0.25"));
        QCOMPARE(budgetReferenceKey(graph, 0.00001), QStringLiteral("memory_budget_1e-05"));
        QCOMPARE(budgetReferenceKey(graph, 0.5), QString());
    }
};

QTEST_GUILESS_MAIN(TestBudgetReferenceKey)
#include "tst_budgetreferencekey.moc"
