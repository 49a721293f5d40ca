// SPDX-License-Identifier: MIT
// The newest rules on tagged joint graphs: the op counts PyTorch's
// test/dynamo/test_activation_checkpointing.py asserts (reference doc section 9.1), for both
// partitioners. The graphs and expectations come from tests/data/ac_tags (made with real PyTorch).
#include "graph/error.h"
#include "io/joint_graph_reader.h"
#include "partition/partitioner.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <algorithm>

using namespace remat;

namespace {

const QString kDir = QStringLiteral(REMAT_TEST_DATA_DIR "/ac_tags/");

QJsonObject expectations()
{
    QFile file(kDir + QStringLiteral("expectations.json"));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object();
}

/// call_function nodes computing `target` in a partitioned graph, as the test's count_ops counts
/// them. In the backward, saved values are placeholders: they are not computed there.
int countOps(const JointGraph& graph, const PartitionResult& result, const std::vector<NodeId>& nodes,
    const QString& target, bool backward)
{
    return static_cast<int>(std::count_if(nodes.begin(), nodes.end(), [&](NodeId n) {
        return graph.node(n).op == NodeOp::CallFunction && !(backward && result.isSaved(n))
            && QString::fromStdString(graph.opOf(n).target) == target;
    }));
}

} // namespace

class TestNewestRules : public QObject {
    Q_OBJECT

private slots:
    void matchesActivationCheckpointingTests_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("partitioner");
        QTest::addColumn<QJsonObject>("expected");
        const QJsonObject all = expectations();
        QVERIFY2(!all.isEmpty(), "tests/data/ac_tags/expectations.json is missing");
        for (auto it = all.begin(); it != all.end(); ++it) {
            const QJsonObject e = it.value().toObject();
            for (const auto& p : e.value(QLatin1String("partitioners")).toArray()) {
                const bool minCut = p.toString() == QLatin1String("min_cut");
                QTest::addRow("%s/%s", qPrintable(it.key()), qPrintable(p.toString()))
                    << it.key() << int(minCut ? PartitionerKind::MinCut : PartitionerKind::Default) << e;
            }
        }
    }

    void matchesActivationCheckpointingTests()
    {
        QFETCH(QString, file);
        QFETCH(int, partitioner);
        QFETCH(QJsonObject, expected);
        const JointGraph graph = readJointGraphFile((kDir + file).toStdString());
        PartitionOptions options;
        options.rules = RuleSet::Newest;
        options.partitioner = static_cast<PartitionerKind>(partitioner);
        PartitionResult result;
        try {
            result = partitionGraph(graph, options);
        } catch (const Error& e) {
            QFAIL(e.what());
        }

        const auto check = [&](const char* key, const std::vector<NodeId>& nodes, bool atLeast) {
            const bool backward = nodes == result.bwNodes;
            const QJsonObject counts = expected.value(QLatin1String(key)).toObject();
            for (auto it = counts.begin(); it != counts.end(); ++it) {
                const int actual = countOps(graph, result, nodes, it.key(), backward);
                const int want = it.value().toInt();
                const QString what = QStringLiteral("%1 %2: %3, expected %4%5")
                                         .arg(QLatin1String(key), it.key())
                                         .arg(actual)
                                         .arg(atLeast ? QStringLiteral(">= ") : QString())
                                         .arg(want);
                QVERIFY2(atLeast ? actual >= want : actual == want, qPrintable(what));
            }
        };
        check("fw", result.fwNodes, false);
        const bool isDefault = options.partitioner == PartitionerKind::Default;
        check(isDefault && expected.contains(QLatin1String("bw_default")) ? "bw_default" : "bw",
            result.bwNodes, false);
        check("bw_ge", result.bwNodes, true);

        if (expected.contains(QLatin1String("fw_outputs"))) {
            QStringList outputs;
            for (NodeId n : graph.fwdOutputs())
                outputs << QString::fromStdString(graph.node(n).name);
            for (NodeId n : result.savedValues)
                outputs << QString::fromStdString(graph.node(n).name);
            QStringList want;
            for (const auto& v : expected.value(QLatin1String("fw_outputs")).toArray())
                want << v.toString();
            QCOMPARE(outputs, want);
        }
    }

    void tagsAreReadFromTheFile_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QJsonObject>("tags");
        const QJsonObject all = expectations();
        for (auto it = all.begin(); it != all.end(); ++it)
            QTest::addRow("%s", qPrintable(it.key()))
                << it.key() << it.value().toObject().value(QLatin1String("tags")).toObject();
    }

    void tagsAreReadFromTheFile()
    {
        QFETCH(QString, file);
        QFETCH(QJsonObject, tags);
        const JointGraph graph = readJointGraphFile((kDir + file).toStdString());
        const std::pair<const char*, CheckpointPolicy> policies[] = {
            {"MUST_SAVE", CheckpointPolicy::MustSave},
            {"PREFER_SAVE", CheckpointPolicy::PreferSave},
            {"MUST_RECOMPUTE", CheckpointPolicy::MustRecompute},
            {"PREFER_RECOMPUTE", CheckpointPolicy::PreferRecompute},
        };
        for (const auto& entry : policies) {
            const CheckpointPolicy policy = entry.second; // a plain local: clang 14 cannot capture bindings
            const auto count = std::count_if(graph.nodes().begin(), graph.nodes().end(),
                [&](const Node& n) { return n.meta.recompute == policy; });
            QCOMPARE(int(count), tags.value(QLatin1String(entry.first)).toInt(0));
        }
    }

    void torch113IgnoresTheFilesTags()
    {
        // 1.13 had no recompute tags: on a tagged graph its rules must still give 1.13's answer.
        const JointGraph graph
            = readJointGraphFile((kDir + QStringLiteral("tags_function.json")).toStdString());
        const PartitionResult result = partitionGraph(graph, {});
        std::vector<std::string> saved;
        for (NodeId n : result.savedValues)
            saved.push_back(graph.node(n).name);
        QCOMPARE(saved, graph.recordedPartition("min_cut")->savedValues);
    }
};

QTEST_GUILESS_MAIN(TestNewestRules)
#include "tst_newest_rules.moc"
