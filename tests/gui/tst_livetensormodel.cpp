// SPDX-License-Identifier: MIT
// The memory timeline's list of live tensors: a consistent model, largest first, sorted by size
// or by name with the selection following its rows, and the title it is given.
#include "gui_test_support.h"
#include "io/graph_loader.h"
#include "model/node_text.h"
#include "panels/live_tensor_model.h"

#include <QAbstractItemModelTester>
#include <QPersistentModelIndex>
#include <QTest>

using namespace remat;
using namespace remat::ui;

class TestLiveTensorModel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { test::isolate(); }

    void listsSortsAndKeepsTheSelection()
    {
        const QString path = test::samplePath("mlp.json");
        const LoadedGraphPtr graph = analyseGraph(loadGraphFile(path.toStdString()), path);
        QVERIFY(graph->graph.size() >= 4);
        const std::vector<LiveTensor> tensors {{NodeId(0), 512, MemoryCategory::Saved},
            {NodeId(1), 4096, MemoryCategory::Inputs}, {NodeId(2), 512, MemoryCategory::Temporaries},
            {NodeId(3), 64, MemoryCategory::Gradients}};
        LiveTensorModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setTensors(graph, tensors, QStringLiteral("4 live at step 7"));
        QCOMPARE(model.rowCount(), 4);
        QCOMPARE(model.headerData(LiveTensorModel::NameColumn, Qt::Horizontal).toString(),
            QStringLiteral("4 live at step 7"));
        // Largest first; equal sizes keep the simulator's order.
        const auto owners = [&] {
            std::vector<NodeId> out;
            for (int row = 0; row < model.rowCount(); ++row)
                out.push_back(model.nodeAt(row));
            return out;
        };
        QCOMPARE(owners(), (std::vector<NodeId> {1, 0, 2, 3}));
        QCOMPARE(model.index(0, LiveTensorModel::NameColumn).data().toString(), graph->label(1).name);
        QCOMPARE(model.index(0, LiveTensorModel::BytesColumn).data().toString(), formatBytes(4096));
        QCOMPARE(
            model.index(0, LiveTensorModel::BytesColumn).data(LiveTensorModel::SortRole).toLongLong(), 4096);
        QCOMPARE(model.index(0, LiveTensorModel::CategoryColumn).data().toString(),
            QString::fromUtf8(categoryName(MemoryCategory::Inputs).data()));

        // A selected row stays selected on its tensor through a sort.
        const QPersistentModelIndex picked = model.index(3, LiveTensorModel::NameColumn); // node 3
        model.sort(LiveTensorModel::BytesColumn, Qt::AscendingOrder);
        QCOMPARE(owners(), (std::vector<NodeId> {3, 0, 2, 1}));
        QCOMPARE(picked.row(), 0);
        model.sort(LiveTensorModel::NameColumn, Qt::AscendingOrder);
        for (int row = 1; row < model.rowCount(); ++row)
            QVERIFY(model.index(row - 1, 0).data().toString() <= model.index(row, 0).data().toString());
        QCOMPARE(model.nodeAt(picked.row()), NodeId(3));

        // New tensors come in the order last chosen; clearing empties the list and its title.
        model.setTensors(graph, tensors, QStringLiteral("4 live at the peak (step 9)"));
        for (int row = 1; row < model.rowCount(); ++row)
            QVERIFY(model.index(row - 1, 0).data().toString() <= model.index(row, 0).data().toString());
        model.clear();
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(model.headerData(0, Qt::Horizontal).toString(), QStringLiteral("live tensor"));
    }
};

QTEST_MAIN(TestLiveTensorModel)
#include "tst_livetensormodel.moc"
