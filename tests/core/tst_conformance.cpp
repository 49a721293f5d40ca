// SPDX-License-Identifier: MIT
// Conformance: on every oracle graph, our torch-1.13 rules reproduce what PyTorch 1.13.1 decided.
#include "conformance_support.h"
#include "graph/error.h"
#include "io/joint_graph_reader.h"
#include "partition/partitioner.h"

#include <QDir>
#include <QTest>

#include <algorithm>
#include <map>
#include <memory>
#include <set>

using namespace remat;
using namespace remat::testing;

namespace {

QStringList oracleFiles()
{
    QStringList files;
    const QDir oracle(QStringLiteral(REMAT_SHARED_DIR "/oracle"));
    for (const auto& name : oracle.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name))
        files << oracle.filePath(name);
    const QDir random(oracle.filePath(QStringLiteral("random")));
    for (const auto& name : random.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name))
        files << random.filePath(name);
    return files;
}

} // namespace

class TestConformance : public QObject {
    Q_OBJECT

private slots:
    void oracleIsThere()
    {
        QVERIFY2(oracleFiles().size() >= 129,
            qPrintable(QStringLiteral("expected the oracle graphs in " REMAT_SHARED_DIR "/oracle, found %1")
                           .arg(oracleFiles().size())));
    }

    void matchesPyTorch_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("recorded");
        QTest::addColumn<int>("partitioner");
        QTest::addColumn<int>("compiler");
        for (const QString& path : oracleFiles()) {
            const QString name = QFileInfo(path).completeBaseName();
            QTest::addRow("%s/min_cut", qPrintable(name))
                << path << QStringLiteral("min_cut") << int(PartitionerKind::MinCut)
                << int(OpListCompiler::Nvfuser);
            QTest::addRow("%s/min_cut_inductor", qPrintable(name))
                << path << QStringLiteral("min_cut_inductor") << int(PartitionerKind::MinCut)
                << int(OpListCompiler::Inductor);
            QTest::addRow("%s/default", qPrintable(name))
                << path << QStringLiteral("default") << int(PartitionerKind::Default)
                << int(OpListCompiler::Nvfuser);
        }
    }

    void matchesPyTorch()
    {
        QFETCH(QString, path);
        QFETCH(QString, recorded);
        QFETCH(int, partitioner);
        QFETCH(int, compiler);
        const JointGraph& graph = loadedOnce(path);
        const RecordedPartition* expected = graph.recordedPartition(recorded.toStdString());
        QVERIFY2(expected, "the oracle file has no recorded decision for this setting");

        PartitionOptions options;
        options.partitioner = static_cast<PartitionerKind>(partitioner);
        options.rules = RuleSet::Torch113;
        options.compiler = static_cast<OpListCompiler>(compiler);
        PartitionResult result;
        try {
            result = partitionGraph(graph, options);
        } catch (const Error& e) {
            QFAIL(e.what());
        }

        const auto saved = names(graph, result.savedValues);
        if (options.partitioner == PartitionerKind::MinCut) {
            // min-cut emits saved values in graph order: the lists must be identical.
            QVERIFY2(saved == expected->savedValues, setDifference(saved, expected->savedValues).constData());
        } else {
            QVERIFY2(sorted(saved) == sorted(expected->savedValues),
                setDifference(saved, expected->savedValues).constData());
        }
        const auto fw = names(graph, result.fwNodes);
        const auto bw = names(graph, result.bwNodes);
        QVERIFY2(sorted(fw) == sorted(expected->fwNodes),
            ("forward " + setDifference(fw, expected->fwNodes)).constData());
        QVERIFY2(sorted(bw) == sorted(expected->bwNodes),
            ("backward " + setDifference(bw, expected->bwNodes)).constData());

        if (recorded == QLatin1String("min_cut")) {
            if (expected->cutValue)
                QCOMPARE(result.cutValue.value_or(-1), *expected->cutValue);
            std::map<std::string, std::string> merged;
            for (std::size_t i = 0; i < result.mergedInto.size(); ++i) {
                if (result.mergedInto[i] != kNoNode)
                    merged[graph.nodes()[i].name] = graph.node(result.mergedInto[i]).name;
            }
            QVERIFY2(merged == expected->cseMerged, "CSE merged different nodes than PyTorch's fx_graph_cse");
            QCOMPARE(names(graph, result.dceRemoved), expected->dceRemoved);
        }
    }
};

QTEST_GUILESS_MAIN(TestConformance)
#include "tst_conformance.moc"
