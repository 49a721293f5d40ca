// SPDX-License-Identifier: MIT
// A value kept out of line reads as a default until edited, and copies of it are deep.
#include "graph/node.h"
#include "graph/out_of_line.h"

#include <QTest>

#include <string>
#include <utility>

using namespace remat;

class TestOutOfLine : public QObject {
    Q_OBJECT

private slots:
    void anEmptyOneReadsAsADefault()
    {
        const OutOfLine<SourceText> source;
        QVERIFY(source->stackTrace.empty());
        QVERIFY((*source).nnModuleStack.empty());
    }

    void anEditIsKept()
    {
        OutOfLine<SourceText> source;
        source.edit().stackTrace = "File: model.py:12";
        source.edit().nnModuleStack.push_back("block.mlp");
        QCOMPARE(source->stackTrace, std::string("File: model.py:12"));
        QCOMPARE(source->nnModuleStack.size(), std::size_t {1});
    }

    void aCopyIsDeep()
    {
        OutOfLine<SymbolicText> original;
        original.edit().expr = "s0";
        OutOfLine<SymbolicText> copy = original;
        copy.edit().expr = "s1";
        QCOMPARE(original->expr, std::string("s0"));
        QCOMPARE(copy->expr, std::string("s1"));

        OutOfLine<SymbolicText> assigned;
        assigned = original;
        original.edit().bindsSymbol = "s0";
        QVERIFY(assigned->bindsSymbol.empty());
        QCOMPARE(assigned->expr, std::string("s0"));
    }

    void anEmptyCopyStaysEmptyAndAMoveTakesTheValue()
    {
        OutOfLine<SymbolicText> empty;
        OutOfLine<SymbolicText> copy = empty;
        QVERIFY(copy->expr.empty());
        copy.edit().expr = "s2";
        QVERIFY(empty->expr.empty()); // the shared default was not written

        OutOfLine<SymbolicText> moved = std::move(copy);
        QCOMPARE(moved->expr, std::string("s2"));
    }

    void aNodeKeepsItsTextsThroughCopies()
    {
        Node node;
        node.meta.source.edit().stackTrace = "File: model.py:3";
        node.symbolic.edit().freeSymbols = {"s0", "s1"};
        const Node copy = node;
        node.symbolic.edit().freeSymbols.clear();
        QCOMPARE(copy.meta.source->stackTrace, std::string("File: model.py:3"));
        QCOMPARE(copy.symbolic->freeSymbols.size(), std::size_t {2});
    }
};

QTEST_GUILESS_MAIN(TestOutOfLine)
#include "tst_outofline.moc"
