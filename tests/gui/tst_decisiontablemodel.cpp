// SPDX-License-Identifier: MIT
// The partition panel's tables: model consistency (QAbstractItemModelTester), sorting, filtering.
#include "explain/node_decision.h"
#include "gui_test_support.h"
#include "io/graph_loader.h"
#include "model/partition_outcome.h"
#include "panels/decision_filter_proxy.h"
#include "panels/decision_table_model.h"

#include <QAbstractItemModelTester>
#include <QTest>

#include <algorithm>
#include <iterator>
#include <map>
#include <set>
#include <utility>

using namespace remat;
using namespace remat::ui;

namespace {

LoadedGraphPtr loadSample(const char* name)
{
    return analyseGraph(loadGraphFile(test::samplePath(name).toStdString()), test::samplePath(name));
}

bool isTextColumn(int column)
{
    return column == DecisionTableModel::OpColumn || column == DecisionTableModel::ValueColumn
        || column == DecisionTableModel::TagColumn || column == DecisionTableModel::DetailColumn;
}

/// Whether row `a` may come before row `b` when sorted by `column` in `order`.
bool inOrder(const QModelIndex& a, const QModelIndex& b, Qt::SortOrder order)
{
    const auto ordered
        = [order](const auto& x, const auto& y) { return order == Qt::AscendingOrder ? !(y < x) : !(x < y); };
    if (isTextColumn(a.column()))
        return ordered(a.data().toString(), b.data().toString());
    return ordered(
        a.data(DecisionTableModel::SortRole).toLongLong(), b.data(DecisionTableModel::SortRole).toLongLong());
}

/// Whether the rows of `model` are in `order` by `column`, as the column shows them.
bool sortedBy(const QAbstractItemModel& model, int column, Qt::SortOrder order)
{
    for (int row = 1; row < model.rowCount(); ++row)
        if (!inOrder(model.index(row - 1, column), model.index(row, column), order))
            return false;
    return true;
}

bool sortedBySizeDescending(const QAbstractItemModel& model)
{
    return sortedBy(model, DecisionTableModel::SizeColumn, Qt::DescendingOrder);
}

/// Varied tags, so that the tag column has something to sort.
CheckpointPolicy everyThirdTagged(NodeId n)
{
    return n % 3 == 0 ? CheckpointPolicy::PreferRecompute
        : n % 3 == 1  ? CheckpointPolicy::MustSave
                      : CheckpointPolicy::None;
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
        model.setData(
            graph, runPartition(*graph, other, 2), [](NodeId) { return CheckpointPolicy::MustSave; });
        model.refreshTags();
        model.setData(nullptr, nullptr, {});
        QCOMPARE(model.rowCount(), 0);
    }

    // A live re-partition of the same graph moves only the rows that changed: a sorted view's
    // persistent indexes (its selection, its current row) survive on the rows that stay.
    void repartitionKeepsTheRowsThatStay_data()
    {
        QTest::addColumn<QString>("sample");
        QTest::addColumn<bool>("secondIsDefault");
        QTest::addColumn<int>("recomputeEveryNth"); // tags of the second plan: 0 none
        QTest::addColumn<int>("sortColumn");
        QTest::addColumn<Qt::SortOrder>("sortOrder");
        QTest::addRow("min-cut, then default; by size")
            << QStringLiteral("transformer_block.json") << true << 0
            << static_cast<int>(DecisionTableModel::SizeColumn) << Qt::DescendingOrder;
        QTest::addRow("every other saved value tagged MUST_RECOMPUTE; by size")
            << QStringLiteral("gpt_small.json") << false << 2
            << static_cast<int>(DecisionTableModel::SizeColumn) << Qt::DescendingOrder;
        // Keys the new plan changes: the rows that stay must move to their new places.
        QTest::addRow("min-cut, then default; by dist_from_bw")
            << QStringLiteral("transformer_block.json") << true << 0
            << static_cast<int>(DecisionTableModel::DistanceColumn) << Qt::AscendingOrder;
        QTest::addRow("every other saved value tagged MUST_RECOMPUTE; by PyTorch's decision")
            << QStringLiteral("gpt_small.json") << false << 2
            << static_cast<int>(DecisionTableModel::DetailColumn) << Qt::DescendingOrder;
        QTest::addRow("every other saved value tagged MUST_RECOMPUTE; in the partitioner's order")
            << QStringLiteral("gpt_small.json") << false << 2 << -1 << Qt::AscendingOrder;
    }

    void repartitionKeepsTheRowsThatStay()
    {
        QFETCH(QString, sample);
        QFETCH(bool, secondIsDefault);
        QFETCH(int, recomputeEveryNth);
        QFETCH(int, sortColumn);
        QFETCH(Qt::SortOrder, sortOrder);
        const LoadedGraphPtr graph = loadSample(qPrintable(sample));
        PartitionOptions options;
        options.rules = RuleSet::Torch214; // which honours tags
        const PartitionOutcomePtr first = runPartition(*graph, options, 1);
        QVERIFY(first->ok());
        PartitionOptions other = options;
        if (secondIsDefault)
            other.partitioner = PartitionerKind::Default;
        // Every n-th saved value tagged MUST_RECOMPUTE, where the partition can still be made.
        for (std::size_t i = 0; recomputeEveryNth > 0 && i < first->result->savedValues.size();
             i += static_cast<std::size_t>(recomputeEveryNth)) {
            other.tags.emplace_back(first->result->savedValues[i], CheckpointPolicy::MustRecompute);
            if (!runPartition(*graph, other, 2)->ok())
                other.tags.pop_back();
        }
        const PartitionOutcomePtr second = runPartition(*graph, other, 2);
        QVERIFY2(second->ok(), qPrintable(second->error));
        DecisionTableModel model(DecisionTableModel::List::Saved);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        DecisionFilterProxy proxy;
        proxy.setSourceModel(&model);
        QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.sort(sortColumn, sortOrder);
        model.setData(graph, first, [](NodeId) { return CheckpointPolicy::None; });

        const auto savedBy = [&](const PartitionOutcomePtr& o) {
            std::set<NodeId> nodes(o->result->savedValues.begin(), o->result->savedValues.end());
            nodes.insert(o->result->savedSymNodes.begin(), o->result->savedSymNodes.end());
            nodes.insert(o->onlyReference.begin(), o->onlyReference.end());
            return nodes;
        };
        const std::set<NodeId> before = savedBy(first);
        const std::set<NodeId> after = savedBy(second);
        std::vector<NodeId> kept;
        std::set_intersection(
            before.begin(), before.end(), after.begin(), after.end(), std::back_inserter(kept));
        // The two plans must differ both ways, or this test would prove nothing.
        QVERIFY(!kept.empty() && kept.size() < before.size() && kept.size() < after.size());

        std::vector<QPersistentModelIndex> marks;
        for (const NodeId n : kept)
            marks.emplace_back(
                proxy.mapFromSource(model.index(model.rowOf(n), DecisionTableModel::NameColumn)));
        model.setData(graph, second, [](NodeId) { return CheckpointPolicy::MustSave; });

        QCOMPARE(static_cast<std::size_t>(model.rowCount()), after.size());
        std::set<NodeId> shown;
        for (int row = 0; row < model.rowCount(); ++row)
            shown.insert(model.index(row, 0).data(DecisionTableModel::NodeRole).toInt());
        QCOMPARE(shown, after);
        for (std::size_t i = 0; i < kept.size(); ++i) {
            QVERIFY(marks[i].isValid());
            QCOMPARE(marks[i].data(DecisionTableModel::NodeRole).toInt(), kept[i]);
        }
        // The rows show the new partition: its tags and its sort order.
        QCOMPARE(
            model.index(0, DecisionTableModel::TagColumn).data().toString(), QStringLiteral("MUST_SAVE"));
        if (sortColumn >= 0) {
            QVERIFY(sortedBy(proxy, sortColumn, sortOrder));
        } else { // the rows that stay keep their order, and the new ones follow in the plan's
            std::vector<NodeId> expected;
            for (int row = 0; row < static_cast<int>(kept.size()); ++row)
                expected.push_back(model.index(row, 0).data(DecisionTableModel::NodeRole).toInt());
            QVERIFY(std::is_permutation(expected.begin(), expected.end(), kept.begin()));
        }
    }

    void sortsByEveryColumn_data()
    {
        QTest::addColumn<int>("list");
        QTest::addColumn<int>("column");
        for (const auto& [list, name] : {std::pair {DecisionTableModel::List::Saved, "saved"},
                 std::pair {DecisionTableModel::List::Banned, "banned"}}) {
            for (int column = 0; column < DecisionTableModel::ColumnCount; ++column)
                QTest::addRow("%s, column %d", name, column) << static_cast<int>(list) << column;
        }
    }

    void sortsByEveryColumn()
    {
        QFETCH(int, list);
        QFETCH(int, column);
        const LoadedGraphPtr graph = loadSample("gpt_small.json");
        DecisionTableModel model(static_cast<DecisionTableModel::List>(list));
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        DecisionFilterProxy proxy;
        proxy.setSourceModel(&model);
        model.setData(graph, runPartition(*graph, {}, 1), everyThirdTagged);
        QVERIFY(model.rowCount() > 10);
        QPersistentModelIndex mark = proxy.index(model.rowCount() / 2, 0);
        const NodeId marked = mark.data(DecisionTableModel::NodeRole).toInt();
        for (const Qt::SortOrder order : {Qt::AscendingOrder, Qt::DescendingOrder}) {
            proxy.sort(column, order);
            QVERIFY(sortedBy(proxy, column, order));
            QCOMPARE(mark.data(DecisionTableModel::NodeRole).toInt(), marked); // a selection follows
        }
    }

    // Stable: sorted by size after the op, rows of one size stay in the op's order.
    void sortingKeepsTheOrderOfEqualRows()
    {
        const LoadedGraphPtr graph = loadSample("gpt_small.json");
        DecisionTableModel model(DecisionTableModel::List::Banned);
        model.setData(graph, runPartition(*graph, {}, 1), everyThirdTagged);
        model.sort(DecisionTableModel::OpColumn, Qt::AscendingOrder);
        model.sort(DecisionTableModel::SizeColumn, Qt::DescendingOrder);
        int ties = 0;
        for (int row = 1; row < model.rowCount(); ++row) {
            const QModelIndex size = model.index(row, DecisionTableModel::SizeColumn);
            if (size.data(DecisionTableModel::SortRole)
                != model.index(row - 1, DecisionTableModel::SizeColumn).data(DecisionTableModel::SortRole))
                continue;
            ++ties;
            QVERIFY(inOrder(model.index(row - 1, DecisionTableModel::OpColumn),
                model.index(row, DecisionTableModel::OpColumn), Qt::AscendingOrder));
        }
        QVERIFY(ties > 0); // or this proves nothing
    }

    // Sorted by tag, a tag edit before the next partition re-sorts the rows.
    void tagEditsReorderRowsSortedByTag()
    {
        const LoadedGraphPtr graph = loadSample("transformer_block.json");
        DecisionTableModel model(DecisionTableModel::List::Saved);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        std::map<NodeId, CheckpointPolicy> tags;
        model.setData(graph, runPartition(*graph, {}, 1), [&tags](NodeId n) {
            const auto it = tags.find(n);
            return it == tags.end() ? CheckpointPolicy::None : it->second;
        });
        model.sort(DecisionTableModel::TagColumn, Qt::DescendingOrder);
        const NodeId last = model.index(model.rowCount() - 1, 0).data(DecisionTableModel::NodeRole).toInt();
        tags[last] = CheckpointPolicy::MustSave;
        model.refreshTags();
        QVERIFY(sortedBy(model, DecisionTableModel::TagColumn, Qt::DescendingOrder));
        QCOMPARE(model.index(0, 0).data(DecisionTableModel::NodeRole).toInt(), last);
    }

    void savedRowsSortBySizeAndCompareWithPyTorch()
    {
        const LoadedGraphPtr graph = loadSample("transformer_block.json");
        const PartitionOutcomePtr outcome = runPartition(*graph, {}, 1);
        QVERIFY(outcome->ok());
        QCOMPARE(outcome->referenceKey, QStringLiteral("min_cut"));
        DecisionTableModel model(DecisionTableModel::List::Saved);
        model.setData(graph, outcome, [](NodeId) { return CheckpointPolicy::None; });
        QCOMPARE(static_cast<std::size_t>(model.rowCount()),
            outcome->result->savedValues.size() + outcome->onlyReference.size());

        DecisionFilterProxy proxy;
        proxy.setSourceModel(&model);
        proxy.sort(DecisionTableModel::SizeColumn, Qt::DescendingOrder);
        QVERIFY(sortedBySizeDescending(proxy));
        // Every row names its node, and the PyTorch column says how the reference decided.
        for (int row = 0; row < model.rowCount(); ++row) {
            const NodeId n = model.index(row, 0).data(DecisionTableModel::NodeRole).toInt();
            QCOMPARE(
                model.index(row, DecisionTableModel::NameColumn).data().toString(), graph->label(n).name);
            QVERIFY(!model.index(row, DecisionTableModel::DetailColumn).data().toString().isEmpty());
        }
        proxy.setDifferencesOnly(true);
        QCOMPARE(static_cast<std::size_t>(proxy.rowCount()),
            outcome->onlyOurs.size() + outcome->onlyReference.size());
    }

    // Dynamic shapes: the SymInts a plan saves are saved rows, compared with PyTorch's
    // saved_sym_nodes (they were "in the forward and the backward", and PyTorch's "not saved").
    void savedSymIntsAreRowsComparedWithPyTorch()
    {
        const QString path = QStringLiteral(REMAT_TEST_DATA_DIR "/torch_trace/dynamic.log");
        const LoadedGraphPtr graph = analyseGraph(loadGraphFile(path.toStdString(), "0/1"), path);
        PartitionOptions options;
        options.rules = RuleSet::Torch214;
        const PartitionOutcomePtr outcome = runPartition(*graph, options, 1);
        QVERIFY(outcome->ok());
        QCOMPARE(outcome->referenceKey, QStringLiteral("min_cut"));
        QVERIFY(outcome->onlyOurs.empty() && outcome->onlyReference.empty());
        DecisionTableModel model(DecisionTableModel::List::Saved);
        model.setData(graph, outcome, [](NodeId) { return CheckpointPolicy::None; });
        QCOMPARE(model.rowCount(), 6 + 7);
        const NodeId size = graph->graph.find("sym_size_int_7");
        QVERIFY(model.rowOf(size) >= 0);
        QVERIFY(outcome->has(size, Saved));
        QVERIFY(outcome->has(size, ReferenceSaved));
        QCOMPARE(model.index(model.rowOf(size), DecisionTableModel::DetailColumn).data().toString(),
            QStringLiteral("both"));
        QCOMPARE(decisionOf(graph->graph, *outcome->result, size), NodeDecision::Saved);
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
