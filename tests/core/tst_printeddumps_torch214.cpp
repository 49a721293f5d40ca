// SPDX-License-Identifier: MIT
// Joint graphs that PyTorch 2.14.1 printed with print_readable() in a partition_fn
// (tests/data/printed/torch214, made by its make_prints.py), each beside the same joint module
// exported with 2.14's decisions. The printed reader must read the same graph, place its nodes in
// the forward and the backward as 2.14 tagged them, open it under the torch-2.14 rules, and then
// decide as 2.14 did: at once for aot_module's dumps (no input is static), and for torch.compile's
// once told the static inputs a printout cannot show.
#include "analysis/recording_rules.h"
#include "budget/budget_session.h"
#include "conformance_support.h"
#include "graph/joint_graph_builder.h"
#include "io/joint_graph_reader.h"
#include "io/printed_graph_reader.h"
#include "partition/partitioner.h"

#include <QDir>
#include <QTest>

#include <optional>

using namespace remat;
using namespace remat::testing;

namespace {

constexpr int kExpectedPrints = 13; // make_prints.py: 7 models under torch.compile, 6 under aot_module
constexpr std::string_view kBudgetPrefix = "memory_budget_";

QString dataDir()
{
    return QStringLiteral(REMAT_TEST_DATA_DIR "/printed/torch214");
}

QStringList prints()
{
    QStringList out;
    for (const QString& name : QDir(dataDir()).entryList({QStringLiteral("*.txt")}, QDir::Files, QDir::Name))
        out << dataDir() + QLatin1Char('/') + name;
    return out;
}

QString exportBeside(const QString& print)
{
    return print.chopped(4) + QStringLiteral(".json");
}

/// The print as our reader gives it, with what only the export knows: the static inputs, and that
/// torch.compile partitioned it (its DCE then drops dead random ops); and 2.14's decisions.
JointGraph printToldWhatTheExportKnows(const QString& print)
{
    const JointGraph& exported = loadedOnce(exportBeside(print));
    JointGraph printed = readPrintedGraphFile(print.toStdString());
    GraphSource source = printed.source();
    source.partitionedInsideCompile = exported.source().partitionedInsideCompile;
    return JointGraphBuilder::withProvenance(std::move(printed), std::move(source), exported.recorded(),
        exported.recordedTorchVersion(), exported.staticLifetimeInputIndices());
}

bool isForward(const Node& node)
{
    return node.meta.partitionerTag == PartitionerTag::IsForward;
}

} // namespace

class TestPrintedDumpsTorch214 : public QObject {
    Q_OBJECT

private slots:
    void dataIsThere()
    {
        const QStringList files = prints();
        QVERIFY2(files.size() == kExpectedPrints,
            qPrintable(QStringLiteral("expected %1 prints made by make_prints.py in %2, found %3")
                           .arg(kExpectedPrints)
                           .arg(dataDir())
                           .arg(files.size())));
        for (const QString& print : files) {
            QVERIFY2(
                QFileInfo::exists(exportBeside(print)), qPrintable(print + QStringLiteral(": no export")));
            QVERIFY(loadedOnce(exportBeside(print)).recordedTorchVersion().starts_with("2.14."));
        }
    }

    void readsTheExportedGraph_data()
    {
        QTest::addColumn<QString>("print");
        for (const QString& print : prints())
            QTest::addRow("%s", qPrintable(QFileInfo(print).fileName())) << print;
    }

    /// Names, ops, dataflow, sizes, and the placement 2.14 tagged: a node is inferred "is_forward"
    /// exactly where 2.14 tagged it so, and every node inferred "is_backward" was tagged so.
    void readsTheExportedGraph()
    {
        QFETCH(QString, print);
        const JointGraph printed = readPrintedGraphFile(print.toStdString());
        const JointGraph& exported = loadedOnce(exportBeside(print));
        QCOMPARE(printed.kind(), GraphKind::Joint);
        QCOMPARE(printed.size(), exported.size());
        QCOMPARE(printed.numFwdOutputs(), exported.numFwdOutputs());
        for (NodeId n = 0; n < NodeId(exported.size()); ++n) {
            const Node& a = printed.node(n);
            const Node& b = exported.node(n);
            QCOMPARE(QString::fromStdString(a.name), QString::fromStdString(b.name));
            QCOMPARE(QString::fromStdString(printed.opOf(n).target),
                QString::fromStdString(exported.opOf(n).target));
            QCOMPARE(a.inputs, b.inputs);
            if (b.valueKind == ValueKind::Tensor) {
                QCOMPARE(a.valueKind, ValueKind::Tensor);
                QCOMPARE(a.tensor().shape, b.tensor().shape);
                QCOMPARE(a.tensor().dtype, b.tensor().dtype);
            }
            QVERIFY2(isForward(a) == isForward(b), qPrintable(QString::fromStdString(a.name)));
            if (a.meta.partitionerTag == PartitionerTag::IsBackward)
                QCOMPARE(b.meta.partitionerTag, PartitionerTag::IsBackward);
        }
    }

    /// Size annotations are 2.x's (1.13 prints none): the dump opens under the torch-2.14 rules and
    /// says what it cannot know.
    void opensUnderTheTorch214Rules()
    {
        for (const QString& print : prints()) {
            const JointGraph printed = readPrintedGraphFile(print.toStdString());
            QVERIFY2(rulesOfRecording(printed) == RuleSet::Torch214, qPrintable(print));
            QVERIFY(printed.staticLifetimeInputIndices().empty());
            QVERIFY(!printed.source().partitionedInsideCompile);
            QVERIFY2(QString::fromStdString(printed.source().description)
                         .contains(QStringLiteral("which inputs are parameters")),
                printed.source().description.c_str());
        }
        // A 1.13 print has no annotations and keeps the 1.13 rules.
        const JointGraph old = readPrintedGraphFile(REMAT_TEST_DATA_DIR "/printed/mlp_relu.torch113.txt");
        QCOMPARE(rulesOfRecording(old), RuleSet::Torch113);
    }

    void decidesAsPyTorch_data()
    {
        QTest::addColumn<QString>("print");
        QTest::addColumn<QString>("recorded");
        for (const QString& print : prints()) {
            for (const auto& [key, recording] : loadedOnce(exportBeside(print)).recorded()) {
                if (key != "torch_version")
                    QTest::addRow("%s/%s", qPrintable(QFileInfo(print).fileName()), key.c_str())
                        << print << QString::fromStdString(key);
            }
        }
    }

    /// As read, an aot_module dump decides as 2.14 did; a torch.compile one does once told which
    /// inputs are static. Either way the print decides exactly as its export does with the
    /// same knowledge, so the printout itself loses nothing else.
    void decidesAsPyTorch()
    {
        QFETCH(QString, print);
        QFETCH(QString, recorded);
        const std::string key = recorded.toStdString();
        const JointGraph told = printToldWhatTheExportKnows(print);
        const JointGraph asRead = readPrintedGraphFile(print.toStdString());
        const JointGraph& exported = loadedOnce(exportBeside(print));
        const JointGraph exportAsAPrintSeesIt = JointGraphBuilder::withProvenance(
            readJointGraphFile(exportBeside(print).toStdString()), asRead.source(), {}, "2.x", {});

        PartitionOptions options;
        options.rules = RuleSet::Torch214;
        options.partitioner = key == "default" ? PartitionerKind::Default : PartitionerKind::MinCut;
        std::optional<double> budget;
        if (key.starts_with(kBudgetPrefix))
            budget = std::stod(key.substr(kBudgetPrefix.size()));
        const auto decide = [&](const JointGraph& graph) {
            return budget ? BudgetSession(graph, options, {}).plan(*budget).result
                          : partitionGraph(graph, options);
        };

        const PartitionResult ours = decide(told);
        const QByteArray difference
            = differenceFromRecorded(told, ours, *exported.recordedPartition(key), key == "min_cut");
        QVERIFY2(difference.isEmpty(), difference.constData());
        if (exported.staticLifetimeInputIndices().empty() && !exported.source().partitionedInsideCompile) {
            const PartitionResult plain = decide(asRead);
            QCOMPARE(names(asRead, plain.savedValues), names(told, ours.savedValues));
        }
        const PartitionResult fromPrint = decide(asRead);
        const PartitionResult fromExport = decide(exportAsAPrintSeesIt);
        QCOMPARE(names(asRead, fromPrint.savedValues), names(exportAsAPrintSeesIt, fromExport.savedValues));
        QCOMPARE(sorted(names(asRead, fromPrint.fwNodes)),
            sorted(names(exportAsAPrintSeesIt, fromExport.fwNodes)));
    }
};

QTEST_GUILESS_MAIN(TestPrintedDumpsTorch214)
#include "tst_printeddumps_torch214.moc"
