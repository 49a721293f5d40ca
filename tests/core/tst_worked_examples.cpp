// SPDX-License-Identifier: MIT
// The worked examples of pytorch-partitioner-reference.md (sections 4.2.8 and 9.4): the forward
// outputs (forward results, then saved values) that min-cut gives, as the document lists them and
// as PyTorch recorded them in the files (tests/data/worked_examples, traced by torch 1.13.1).
#include "io/joint_graph_reader.h"
#include "partition/partitioner.h"

#include <QTest>

using namespace remat;

namespace {

JointGraph example(const QString& name)
{
    return readJointGraphFile(
        QStringLiteral(REMAT_TEST_DATA_DIR "/worked_examples/%1.json").arg(name).toStdString());
}

QStringList forwardOutputs(const JointGraph& graph, const PartitionResult& result)
{
    QStringList names;
    for (NodeId n : graph.fwdOutputs())
        names << QString::fromStdString(graph.node(n).name);
    for (NodeId n : result.savedValues)
        names << QString::fromStdString(graph.node(n).name);
    return names;
}

} // namespace

class TestWorkedExamples : public QObject {
    Q_OBJECT

private slots:
    void minCutForwardOutputs_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("compiler");
        QTest::addColumn<QStringList>("expected");
        const int nvfuser = int(OpListCompiler::Nvfuser);
        QTest::addRow("cos(cos(x))") << "cos_cos" << nvfuser << QStringList {"cos_1", "primals_1"};
        QTest::addRow("sum(mm(cos(x), w))")
            << "sum_mm_cos" << nvfuser << QStringList {"sum_1", "primals_1", "t_1"};
        QTest::addRow("sigmoid(mm(sin(x), w))")
            << "sigmoid_mm_sin" << nvfuser << QStringList {"sigmoid", "primals_1", "detach_4", "t_1"};
        QTest::addRow("cos/mm chain")
            << "cos_mm_chain" << nvfuser << QStringList {"sum_1", "primals_1", "mm", "mm_1", "t_1"};
        QTest::addRow("relu(2 gelu(mm))")
            << "relu_mul_gelu_mm" << nvfuser << QStringList {"relu", "mm", "t", "t_1"};
        QTest::addRow("softmax(q k^T / 2)")
            << "softmax_qk" << nvfuser << QStringList {"_softmax", "primals_1", "detach_4", "t_3"};
        QTest::addRow("tanh(rowsum(exp x) x)")
            << "tanh_rowsum_exp" << nvfuser << QStringList {"tanh", "primals_1", "sum_1"};
        QTest::addRow("sin(dropout(cos x))")
            << "sin_dropout_cos" << nvfuser << QStringList {"sin", "primals_1", "bernoulli_"};
        QTest::addRow("8 cos between mms")
            << "eight_cos_between_mms" << nvfuser << QStringList {"mm_1", "mm", "t_1", "t_2"};
        QTest::addRow("reduction ban")
            << "sin_cos_rowsum" << nvfuser << QStringList {"sin", "primals_1", "sum_1"};
        QTest::addRow("views, nvfuser")
            << "mm_cos_view_view" << nvfuser << QStringList {"mm", "view_1", "t_1"};
        QTest::addRow("views, inductor")
            << "mm_cos_view_view" << int(OpListCompiler::Inductor) << QStringList {"mm", "primals_1", "t_1"};
    }

    void minCutForwardOutputs()
    {
        QFETCH(QString, file);
        QFETCH(int, compiler);
        QFETCH(QStringList, expected);
        const JointGraph graph = example(file);
        PartitionOptions options;
        options.compiler = static_cast<OpListCompiler>(compiler);
        const PartitionResult result = partitionGraph(graph, options);
        QCOMPARE(forwardOutputs(graph, result), expected);

        // And the same as the PyTorch that traced the file.
        const auto* recorded = graph.recordedPartition(
            options.compiler == OpListCompiler::Inductor ? "min_cut_inductor" : "min_cut");
        QVERIFY(recorded);
        QStringList recordedOutputs;
        for (NodeId n : graph.fwdOutputs())
            recordedOutputs << QString::fromStdString(graph.node(n).name);
        for (const auto& name : recorded->savedValues)
            recordedOutputs << QString::fromStdString(name);
        QCOMPARE(forwardOutputs(graph, result), recordedOutputs);
    }

    void cosCosWeights()
    {
        // Section 4.2.8: x is 8x8 float32 (256 bytes); primals_1 costs int(256 * 1.1) = 281 and is
        // materialized; cos feeds only fusible ops, so it costs twice that; both paths to the sink
        // pass primals_1, so only primals_1 is saved and the backward recomputes cos.
        const JointGraph graph = example(QStringLiteral("cos_cos"));
        const PartitionResult result = partitionGraph(graph, {});
        QCOMPARE(result.weights[std::size_t(graph.find("primals_1"))], 281);
        QCOMPARE(result.weights[std::size_t(graph.find("cos"))], 562);
        QCOMPARE(result.classes.dist(graph.find("cos")), 1);
        QCOMPARE(result.recomputed, std::vector<NodeId> {graph.find("cos")});
    }
};

QTEST_GUILESS_MAIN(TestWorkedExamples)
#include "tst_worked_examples.moc"
