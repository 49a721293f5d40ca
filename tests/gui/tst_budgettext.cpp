// SPDX-License-Identifier: MIT
// Runtimes in the estimator's unit, as the panels and tooltips print them: the what-if showed
// "+5.243e+05 FLOP" where the command line says "+524.3 kFLOP".
#include "model/budget_text.h"
#include "plots/plot_units.h"

#include <QTest>

using namespace remat::ui;

class TestBudgetText : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void runtimesUseUnitPrefixes()
    {
        QCOMPARE(formatRuntime(289, "flops"), QStringLiteral("289 FLOP"));
        QCOMPARE(formatRuntime(524288, "flops"), QStringLiteral("524.3 kFLOP"));
        QCOMPARE(formatRuntime(4.719e6, "flops"), QStringLiteral("4.719 MFLOP"));
        QCOMPARE(formatRuntime(8.523e9, "flops"), QStringLiteral("8.523 GFLOP"));
        QCOMPARE(formatRuntime(12.5, "ms"), QStringLiteral("12.5 ms"));
        QCOMPARE(formatRuntime(12345, "ms"), QStringLiteral("12.35 s"));
        QCOMPARE(formatRuntime(17, "nodes"), QStringLiteral("17 nodes"));
        QCOMPARE(formatRuntimeDelta(524288, "flops"), QStringLiteral("+524.3 kFLOP"));
        QCOMPARE(formatRuntimeDelta(-2.5e6, "flops"), QStringLiteral("−2.5 MFLOP"));
        QCOMPARE(formatRuntimeDelta(0, "flops"), QStringLiteral("±0"));
    }
};

QTEST_MAIN(TestBudgetText)
#include "tst_budgettext.moc"
