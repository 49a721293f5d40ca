// SPDX-License-Identifier: MIT
// The partition panel's tables: model consistency (QAbstractItemModelTester), sorting, filtering.
#include "gui_test_support.h"
#include "io/graph_loader.h"
#include "model/partition_outcome.h"
#include "panels/decision_filter_proxy.h"
#include "panels/decision_table_model.h"

#include <QAbstractItemModelTester>
#include <QTest>

using namespace remat;
using namespace remat::ui;

namespace {

LoadedGraphPtr loadSample(const char* name)
{
    return analyseGraph(loadGraphFile(test::samplePath(name).toStdString()), test::samplePath(name));
}

} // namespace

class TestDecisionTableModel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { test::isolate(); }

    void modelIsConsistent_data()
    {
        QTest::addColumn<int>("list");
        QTest::addRow("saved") << static_cast<int>(DecisionTableModel::List::Saved);
        QTest::addRow("recomputed") << static_cast<int>(DecisionTableModel::List::Recomputed);
        QTest::addRow("banned") << static_cast<int>(DecisionTableModel::List::Banned);
    }

    void modelIsConsistent()
    {
        QFETCH(int, list);
        const LoadedGraphPtr graph = loadSample("transformer_block.json");
        DecisionTableModel model(static_cast<DecisionTableModel::List>(list));
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        DecisionFilterProxy proxy;
        proxy.setSourceModel(&model);
        QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);

        model.setData(graph, runPartition(*graph, {}, 1), [](NodeId) { return CheckpointPolicy::None; });
        QVERIFY(model.rowCount() > 0);
        proxy.sort(DecisionTableModel::SizeColumn, Qt::DescendingOrder);
        proxy.setText(QStringLiteral("view"));
        proxy.setText(QString());
        // A different partition resets the rows.
        PartitionOptions other;
        other.partitioner = PartitionerKind::Default;
        model.setData(graph, runPartition(*graph, other, 2), [](NodeId) { return CheckpointPolicy::MustSave; });
        model.refreshTags();
        model.setData(nullptr, nullptr, {});
        QCOMPARE(model.rowCount(), 0);
    }

    void savedRowsSortBySizeAndCompareWithPyTorch()
    {
        const LoadedGraphPtr graph = loadSample("transformer_block.json");
        const PartitionOutcomePtr outcome = runPartition(*graph, {}, 1);
        QVERIFY(outcome->ok());
        QCOMPARE(outcome->referenceKey, QStringLiteral("min_cut"));
        DecisionTableModel model(DecisionTableModel::List::Saved);
        model.setData(graph, outcome, [](NodeId) { return CheckpointPolicy::None; });
        QCOMPARE(static_cast<std::size_t>(model.rowCount()), outcome->result->savedValues.size() + outcome->onlyReference.size());

        DecisionFilterProxy proxy;
        proxy.setSourceModel(&model);
        proxy.sort(DecisionTableModel::SizeColumn, Qt::DescendingOrder);
        qlonglong previous = std::numeric_limits<qlonglong>::max();
        for (int row = 0; row < proxy.rowCount(); ++row) {
            const qlonglong size = proxy.index(row, DecisionTableModel::SizeColumn).data(DecisionTableModel::SortRole).toLongLong();
            QVERIFY(size <= previous);
            previous = size;
        }
        // Every row names its node, and the PyTorch column says how the reference decided.
        for (int row = 0; row < model.rowCount(); ++row) {
            const NodeId n = model.index(row, 0).data(DecisionTableModel::NodeRole).toInt();
            QCOMPARE(model.index(row, DecisionTableModel::NameColumn).data().toString(), graph->label(n).name);
            QVERIFY(!model.index(row, DecisionTableModel::DetailColumn).data().toString().isEmpty());
        }
        proxy.setDifferencesOnly(true);
        QCOMPARE(static_cast<std::size_t>(proxy.rowCount()), outcome->onlyOurs.size() + outcome->onlyReference.size());
    }

    void filterMatchesNameOrOp()
    {
        const LoadedGraphPtr graph = loadSample("transformer_block.json");
        DecisionTableModel model(DecisionTableModel::List::Banned);
        model.setData(graph, runPartition(*graph, {}, 1), [](NodeId) { return CheckpointPolicy::None; });
        DecisionFilterProxy proxy;
        proxy.setSourceModel(&model);
        QVERIFY(model.rowCount() > 0);
        const QString op = model.index(0, DecisionTableModel::OpColumn).data().toString();
        proxy.setText(op);
        QVERIFY(proxy.rowCount() > 0);
        QVERIFY(proxy.rowCount() < model.rowCount());
        for (int row = 0; row < proxy.rowCount(); ++row) {
            const QString name = proxy.index(row, DecisionTableModel::NameColumn).data().toString();
            const QString rowOp = proxy.index(row, DecisionTableModel::OpColumn).data().toString();
            QVERIFY(name.contains(op, Qt::CaseInsensitive) || rowOp.contains(op, Qt::CaseInsensitive));
        }
        // Banned rows carry the rule that banned them.
        QVERIFY(!proxy.index(0, DecisionTableModel::DetailColumn).data().toString().isEmpty());
    }
};

QTEST_MAIN(TestDecisionTableModel)
#include "tst_decisiontablemodel.moc"
