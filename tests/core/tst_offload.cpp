// SPDX-License-Identifier: MIT
// Activation offloading (torch 2.x's enable_activation_offloading) against PyTorch 2.14.1's own
// decisions on graphs traced with CPU-offload checkpoint policies (tests/data/offload, made by
// make_offload_cases.py): the saved values, which of them are offloaded, which offload tags are
// refused and in what words, and where the memory simulation moves them to the host and back.
#include "budget/memory_simulation.h"
#include "budget/storage_aliasing.h"
#include "io/joint_graph_reader.h"
#include "partition/min_cut_preparation.h"
#include "partition/partitioner.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <map>
#include <set>

using namespace remat;

namespace {

constexpr int kExpectedCases = 4; // make_offload_cases.py's CASES

QStringList caseFiles()
{
    const QDir dir(QStringLiteral(REMAT_TEST_DATA_DIR "/offload"));
    QStringList files;
    for (const auto& name : dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name))
        files << dir.filePath(name);
    return files;
}

/// extra.offload_torch2 of a case file (2.14's decisions); fails the test when it is missing.
QJsonObject recorded(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    const QJsonObject extra
        = QJsonDocument::fromJson(file.readAll()).object().value(QLatin1String("extra")).toObject();
    return extra.value(QLatin1String("offload_torch2")).toObject();
}

std::vector<std::string> strings(const QJsonValue& value)
{
    std::vector<std::string> out;
    for (const auto& v : value.toArray())
        out.push_back(v.toString().toStdString());
    return out;
}

std::vector<std::string> names(const JointGraph& graph, const std::vector<NodeId>& nodes)
{
    std::vector<std::string> out;
    for (NodeId n : nodes)
        out.push_back(graph.node(n).name);
    return out;
}

PartitionResult partition(const JointGraph& graph, bool offloading)
{
    PartitionOptions options;
    options.rules = RuleSet::Torch214;
    options.config.activationOffloading = offloading;
    return partitionGraph(graph, options);
}

/// 2.14 moves getitems up to their producer after the pass (raise_getitems), so a copy placed
/// after a multi-output op ends up after its getitems: the op is the place.
std::string throughGetitems(const JointGraph& graph, std::string name)
{
    for (NodeId n = graph.find(name);
         n != kNoNode && graph.opOf(n).target == "_operator.getitem" && !graph.node(n).inputs.empty();
         n = graph.node(n).inputs.front())
        name = graph.node(graph.node(n).inputs.front()).name;
    return name;
}

} // namespace

class TestOffload : public QObject {
    Q_OBJECT

private slots:
    void cases_data()
    {
        QTest::addColumn<QString>("path");
        const QStringList files = caseFiles();
        QVERIFY2(files.size() == kExpectedCases,
            qPrintable(
                QStringLiteral("tests/data/offload holds %1 graphs, expected %2: run make_offload_cases.py")
                    .arg(files.size())
                    .arg(kExpectedCases)));
        for (const auto& f : files)
            QTest::newRow(qPrintable(QFileInfo(f).completeBaseName())) << f;
    }

    void cases()
    {
        QFETCH(QString, path);
        const QJsonObject torch = recorded(path);
        QVERIFY2(
            torch.contains(QLatin1String("activation_offloading")), "no recorded 2.14 decision in the file");
        const QJsonObject withPass = torch.value(QLatin1String("activation_offloading")).toObject();
        const JointGraph graph = readJointGraphFile(path.toStdString());

        // Off by default, as in 2.14: nothing offloaded, and the pass never changes the saved set.
        const PartitionResult plain = partition(graph, false);
        QVERIFY(plain.offloaded.empty() && plain.offloadRefused.empty());
        QCOMPARE(names(graph, plain.savedValues),
            strings(torch.value(QLatin1String("min_cut")).toObject().value(QLatin1String("saved_values"))));
        // 2.14 itself reads only meta["should_offload"]: its tags alone offload nothing.
        QVERIFY(strings(torch.value(QLatin1String("tags_only_offloaded"))).empty());

        const PartitionResult result = partition(graph, true);
        QCOMPARE(names(graph, result.savedValues), strings(withPass.value(QLatin1String("saved_values"))));
        QCOMPARE(names(graph, result.offloaded), strings(withPass.value(QLatin1String("offloaded"))));

        // Refusals: every one 2.14 logged, in its words; ours in 2.14's words only where 2.14 logged one.
        std::map<std::string, std::string> ours;
        for (const auto& r : result.offloadRefused)
            ours[graph.node(r.node).name] = r.reason;
        const QJsonObject refused = withPass.value(QLatin1String("refused")).toObject();
        for (auto it = refused.begin(); it != refused.end(); ++it) {
            const auto found = ours.find(it.key().toStdString());
            QVERIFY2(
                found != ours.end(), qPrintable(QStringLiteral("2.14 refused %1, we did not").arg(it.key())));
            QCOMPARE(QString::fromStdString(found->second), it.value().toString());
        }
        for (const auto& [name, reason] : ours) {
            if (reason.starts_with("Can") && !refused.contains(QString::fromStdString(name)))
                QFAIL(qPrintable(QStringLiteral("we refused %1 (%2), 2.14 did not")
                                     .arg(QString::fromStdString(name), QString::fromStdString(reason))));
        }
        QCOMPARE(result.offloadedBytes > 0, !result.offloaded.empty());

        // The memory simulation moves each value where 2.14's pass puts its copies: to the host after
        // its last forward use, back before its first backward use.
        const PreparedMinCut prepared(graph, result.options);
        const WorkGraph& work = prepared.graph();
        const StorageMap storages(work);
        const MemoryProfile memory = simulateMemory(work, storages, result);
        std::set<std::string> offloadedAt, reloadedAt, expectedOut, expectedBack;
        for (std::size_t i = 0; i < memory.timeline.size(); ++i) {
            const std::int64_t before = i == 0 ? 0 : memory.timeline[i - 1].hostBytes;
            const auto& step = memory.timeline[i];
            if (step.hostBytes > before && i > 0)
                offloadedAt.insert(graph.node(memory.timeline[i - 1].node).name);
            if (step.hostBytes < before)
                reloadedAt.insert(graph.node(step.node).name);
        }
        const QJsonObject after = withPass.value(QLatin1String("offload_after")).toObject();
        for (auto it = after.begin(); it != after.end(); ++it)
            expectedOut.insert(throughGetitems(graph, it.value().toString().toStdString()));
        const QJsonObject before = withPass.value(QLatin1String("reload_before")).toObject();
        for (auto it = before.begin(); it != before.end(); ++it)
            expectedBack.insert(it.value().toString().toStdString());
        QCOMPARE(offloadedAt, expectedOut);
        QCOMPARE(reloadedAt, expectedBack);
        QCOMPARE(memory.timeline.empty() ? -1 : memory.timeline.back().hostBytes, std::int64_t {0});
        QCOMPARE(memory.peakHostBytes > 0, !result.offloaded.empty());
        QVERIFY(memory.peakBytes <= simulateMemory(work, storages, plain).peakBytes);
    }
};

QTEST_GUILESS_MAIN(TestOffload)
#include "tst_offload.moc"
