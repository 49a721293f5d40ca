// SPDX-License-Identifier: MIT
#include "io/printed_graph_reader.h"
#include <QTest>
class TestPrintedGraphReader : public QObject {
    Q_OBJECT
private slots:
    void smoke() {}
};
QTEST_GUILESS_MAIN(TestPrintedGraphReader)
#include "tst_printedgraphreader.moc"
