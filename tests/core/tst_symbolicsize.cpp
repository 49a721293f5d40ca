// SPDX-License-Identifier: MIT
// Symbolic sizes as PyTorch 2.14 prints them under dynamic shapes, evaluated with the symbols'
// example values (the expressions are copied from tests/data/torch_trace/dynamic.log).
#include "graph/error.h"
#include "io/symbolic_size.h"

#include <QTest>

using namespace remat;
using printed::evaluateSize;
using printed::SymbolHints;
using printed::symbolsOf;

class TestSymbolicSize : public QObject {
    Q_OBJECT

private slots:
    void evaluatesWithTheExampleValues_data();
    void evaluatesWithTheExampleValues();
    void namesItsSymbols();
    void refusesWhatItCannotEvaluate_data();
    void refusesWhatItCannotEvaluate();
};

void TestSymbolicSize::evaluatesWithTheExampleValues_data()
{
    QTest::addColumn<QString>("expression");
    QTest::addColumn<qint64>("value");
    // s77 = 3, s53 = 13: the log's compile 0/1.
    QTest::addRow("symbol") << "s77" << qint64(3);
    QTest::addRow("conv output") << "(((s53 - 1)//2)) + 1" << qint64(7);
    QTest::addRow("flattened") << "s77*(2*(((s53 - 1)//2)) + 1)" << qint64(39);
    QTest::addRow("stride") << "16*(((s53 - 1)//2)) + 16" << qint64(112);
    QTest::addRow("product of symbols") << "4*s53*s77" << qint64(156);
    QTest::addRow("power") << "s77**2" << qint64(9);
    QTest::addRow("unary minus") << "-s77 + s53" << qint64(10);
    // Python's // and % round toward negative infinity, unlike C++.
    QTest::addRow("floor division of a negative") << "(1 - s53)//2" << qint64(-6);
    QTest::addRow("python modulo of a negative") << "(1 - s53) % 5" << qint64(3);
    QTest::addRow("Max") << "Max(1, s77 - 5)" << qint64(1);
    QTest::addRow("Min") << "Min(s53, s77, 8)" << qint64(3);
    QTest::addRow("FloorDiv") << "FloorDiv(s53, 2)" << qint64(6);
    QTest::addRow("CeilDiv") << "CeilDiv(s53, 2)" << qint64(7);
    QTest::addRow("ModularIndexing") << "ModularIndexing(s53, 2, 4)" << qint64(2);
    QTest::addRow("PythonMod") << "PythonMod(s53, 5)" << qint64(3);
}

void TestSymbolicSize::evaluatesWithTheExampleValues()
{
    QFETCH(QString, expression);
    QFETCH(qint64, value);
    const SymbolHints hints {{"s77", 3}, {"s53", 13}};
    QCOMPARE(evaluateSize(expression.toStdString(), hints), value);
}

void TestSymbolicSize::namesItsSymbols()
{
    // In order of appearance, each once; function names are not symbols.
    const auto symbols = symbolsOf("s77*(2*(((s53 - 1)//2)) + 1) + Max(s77, u0)");
    QCOMPARE(symbols, (std::vector<std::string> {"s77", "s53", "u0"}));
    QVERIFY(symbolsOf("8").empty());
}

void TestSymbolicSize::refusesWhatItCannotEvaluate_data()
{
    QTest::addColumn<QString>("expression");
    QTest::addColumn<QString>("message");
    QTest::addRow("no example value") << "s99 + 1"
                                      << "the log gives no example value for the symbol 's99'";
    QTest::addRow("unbacked") << "2*u0"
                              << "'u0', a data-dependent (unbacked) symbol";
    QTest::addRow("unknown function") << "Foo(s77)"
                                      << "uses 'Foo', which this tool cannot evaluate";
    QTest::addRow("division by zero") << "s53//(s77 - 3)"
                                      << "divides by zero";
    QTest::addRow("overflow") << "s53**40"
                              << "overflows 64 bits";
    QTest::addRow("product overflow") << "4611686018427387904*s77"
                                      << "overflows 64 bits";
    QTest::addRow("true division") << "s53/2"
                                   << "the operator '/' does not give an integer size";
    QTest::addRow("wrong arity") << "FloorDiv(s53)"
                                 << "'FloorDiv' takes 2 arguments";
    QTest::addRow("not an expression") << "s77 +"
                                       << "";
    QTest::addRow("a float literal") << "1.5*s77"
                                     << "is not an integer size";
}

void TestSymbolicSize::refusesWhatItCannotEvaluate()
{
    QFETCH(QString, expression);
    QFETCH(QString, message);
    const SymbolHints hints {{"s77", 3}, {"s53", 13}};
    try {
        const auto value = evaluateSize(expression.toStdString(), hints);
        QFAIL(qPrintable(QStringLiteral("evaluated to %1").arg(value)));
    } catch (const Error& e) {
        QVERIFY2(QString::fromUtf8(e.what()).contains(message), e.what());
    }
}

QTEST_GUILESS_MAIN(TestSymbolicSize)
#include "tst_symbolicsize.moc"
