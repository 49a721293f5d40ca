// SPDX-License-Identifier: MIT
#include "graph/error.h"
#include "io/file_text.h"
#include "io/joint_graph_reader.h"
#include "io/printed_graph_reader.h"
#include "io/printed_source.h"
#include "partition/partitioner.h"

#include <QDir>
#include <QRegularExpression>
#include <QTest>

#include <charconv>
#include <cmath>

using namespace remat;

namespace {

QString dataPath(const QString& name)
{
    return QStringLiteral(REMAT_TEST_DATA_DIR "/printed/") + name;
}

std::string dataFile(const QString& name)
{
    return dataPath(name).toStdString();
}

QString q(const std::string& s)
{
    return QString::fromStdString(s);
}

/// One canonical text for an Arg tree, the same for both readers: [%node, 1, 'text', repr(torch.float32)].
QString argText(const JointGraph& g, const Arg& a)
{
    switch (a.kind) {
    case ArgKind::None:
        return QStringLiteral("None");
    case ArgKind::Bool:
        return a.boolean ? QStringLiteral("True") : QStringLiteral("False");
    case ArgKind::Int:
        return QString::number(a.integer);
    case ArgKind::Float: {
        if (std::isnan(a.real))
            return QStringLiteral("nan");
        if (std::isinf(a.real))
            return a.real > 0 ? QStringLiteral("inf") : QStringLiteral("-inf");
        char buffer[64];
        const auto end = std::to_chars(buffer, buffer + sizeof buffer, a.real).ptr;
        return QString::fromLatin1(buffer, static_cast<int>(end - buffer)) + QStringLiteral("f");
    }
    case ArgKind::String:
        return QLatin1Char('\'') + q(g.string(a.string)) + QLatin1Char('\'');
    case ArgKind::Repr:
        return QStringLiteral("repr(") + q(g.string(a.string)) + QLatin1Char(')');
    case ArgKind::Node:
        return QLatin1Char('%') + q(g.node(a.node).name);
    case ArgKind::List: {
        QStringList items;
        for (const Arg& child : g.children(a))
            items << argText(g, child);
        return QLatin1Char('[') + items.join(QStringLiteral(", ")) + QLatin1Char(']');
    }
    case ArgKind::Dict: {
        // A Dict's size counts key/value pairs; its 2 * size slots alternate key, value.
        QStringList items;
        for (std::uint32_t i = 0; i < a.size; ++i)
            items << argText(g, g.arg(a.first + 2 * i)) + QStringLiteral(": ")
                    + argText(g, g.arg(a.first + 2 * i + 1));
        return QLatin1Char('{') + items.join(QStringLiteral(", ")) + QLatin1Char('}');
    }
    }
    return QStringLiteral("?");
}

QString argsOf(const JointGraph& g, const Node& n)
{
    return argText(g, g.arg(n.args));
}

QString kwargsOf(const JointGraph& g, const Node& n)
{
    return argText(g, g.arg(n.kwargs));
}

QString metaText(const TensorMeta& m)
{
    QStringList shape;
    for (auto d : m.shape)
        shape << QString::number(d);
    QStringList stride;
    for (auto d : m.stride)
        stride << QString::number(d);
    return QString::fromLatin1(dtypeName(m.dtype).data(), static_cast<int>(dtypeName(m.dtype).size()))
        + QLatin1Char('[') + shape.join(QStringLiteral(", ")) + QStringLiteral("][")
        + stride.join(QStringLiteral(", ")) + QLatin1Char(']') + q(m.device);
}

QString outputNames(const JointGraph& g)
{
    QStringList names;
    for (NodeId id : g.outputs())
        names << (id == kNoNode ? QStringLiteral("None") : q(g.node(id).name));
    return names.join(QLatin1Char(','));
}

/// A one-node graph around `statement`, which may use the placeholder `x`.
std::string oneNodeGraph(const QString& statement)
{
    return QStringLiteral("class GraphModule(torch.nn.Module):\n"
                          "    def forward(self, x):\n"
                          "        %1\n"
                          "        return (y,)\n")
        .arg(statement)
        .toStdString();
}

const Node& nodeNamed(const JointGraph& g, const char* name)
{
    const NodeId id = g.find(name);
    if (id == kNoNode)
        throw Error(std::string("no node named ") + name);
    return g.node(id);
}

QString readError(const std::string& text, const std::string& fileName)
{
    try {
        readPrintedGraphText(text, fileName);
    } catch (const Error& e) {
        return QString::fromUtf8(e.what());
    }
    return QStringLiteral("(no error)");
}

} // namespace

class TestPrintedGraphReader : public QObject {
    Q_OBJECT

private slots:
    void matchesJsonExport_data();
    void matchesJsonExport();
    void readsEveryCheckedInGraph_data();
    void readsEveryCheckedInGraph();
    void sameJointFromEveryLogFormat_data();
    void sameJointFromEveryLogFormat();
    void checkpointTags();
    void selectiveCheckpoint();
    void placementFromTangentsAndMarks();
    void partitionedGraphsPointToTheJointGraph();
    void forwardGraphs_data();
    void forwardGraphs();
    void literals_data();
    void literals();
    void targets_data();
    void targets();
    void annotations_data();
    void annotations();
    void logPrefixes_data();
    void logPrefixes();
    void placeholderRename();
    void compileIdsOfLogPrefixes();
    void skipsWhatIsNotTheGraph();
    void errorsInFiles_data();
    void errorsInFiles();
    void errorsInline_data();
    void errorsInline();
};

// The torch 1.13 prints and the same graphs exported as JSON by make_printed_graphs.py.
void TestPrintedGraphReader::matchesJsonExport_data()
{
    QTest::addColumn<QString>("printed");
    QTest::addColumn<QString>("json");
    QTest::addColumn<bool>("sized");
    for (const char* model :
        {"mlp_relu", "gelu_layernorm", "masked_attention", "conv_batchnorm", "mlp_relu_fw", "fx_forward"})
        QTest::addRow("%s torch 1.13", model)
            << QString::fromLatin1(model) + QStringLiteral(".torch113.txt")
            << QString::fromLatin1(model) + QStringLiteral(".json") << false;
    for (const char* model : {"gelu_layernorm", "conv_batchnorm"})
        QTest::addRow("%s emulated 2.x", model)
            << QString::fromLatin1(model) + QStringLiteral(".emulated2x.txt")
            << QString::fromLatin1(model) + QStringLiteral(".json") << true;
}

void TestPrintedGraphReader::matchesJsonExport()
{
    QFETCH(QString, printed);
    QFETCH(QString, json);
    QFETCH(bool, sized);
    const JointGraph p = readPrintedGraphFile(dataFile(printed));
    const JointGraph j = readJointGraphFile(dataFile(json));
    QCOMPARE(p.kind(), j.kind());
    QCOMPARE(p.size(), j.size());
    QCOMPARE(p.numFwdOutputs(), j.numFwdOutputs());
    QCOMPARE(outputNames(p), outputNames(j));
    QCOMPARE(q(p.filePath()), dataPath(printed));
    for (std::size_t i = 0; i < j.size(); ++i) {
        const Node& a = p.node(static_cast<NodeId>(i));
        const Node& b = j.node(static_cast<NodeId>(i));
        QCOMPARE(q(a.name), q(b.name));
        QCOMPARE(a.op, b.op);
        QCOMPARE(q(p.opOf(static_cast<NodeId>(i)).target), q(j.opOf(static_cast<NodeId>(i)).target));
        QCOMPARE(argsOf(p, a), argsOf(j, b));
        QCOMPARE(kwargsOf(p, a), kwargsOf(j, b));
        QCOMPARE(a.inputs, b.inputs);
        QCOMPARE(a.users, b.users);
        if (!sized) {
            QCOMPARE(a.valueKind, ValueKind::None); // torch 1.13 prints no sizes
            continue;
        }
        if (b.valueKind == ValueKind::Tensor) {
            QCOMPARE(a.valueKind, ValueKind::Tensor);
            QCOMPARE(metaText(a.tensor()), metaText(b.tensor()));
        } else if (b.valueKind == ValueKind::TensorList) {
            // Rebuilt from the annotated getitem users: the elements that have one must match.
            QCOMPARE(a.valueKind, ValueKind::TensorList);
            QVERIFY(a.values.size() <= b.values.size());
            for (std::size_t k = 0; k < a.values.size(); ++k) {
                if (a.values[k])
                    QCOMPARE(metaText(*a.values[k]), metaText(*b.values[k]));
            }
        }
    }
    QVERIFY(q(p.source().description).contains(QStringLiteral("node sizes are unknown")) != sized);
}

void TestPrintedGraphReader::readsEveryCheckedInGraph_data()
{
    QTest::addColumn<QString>("file");
    const QDir dir(dataPath(QString()));
    for (const QString& name : dir.entryList({QStringLiteral("*.txt")}, QDir::Files, QDir::Name))
        QTest::addRow("%s", qPrintable(name)) << name;
    for (const QString& name :
        QDir(dataPath(QStringLiteral("handwritten"))).entryList(QDir::Files, QDir::Name))
        QTest::addRow("handwritten/%s", qPrintable(name)) << QStringLiteral("handwritten/") + name;
}

void TestPrintedGraphReader::readsEveryCheckedInGraph()
{
    QFETCH(QString, file);
    const JointGraph g = readPrintedGraphFile(dataFile(file));
    QVERIFY(g.size() > 2);
    QCOMPARE(g.node(g.outputNode()).op, NodeOp::Output);
    QCOMPARE(g.outputNode(), static_cast<NodeId>(g.size() - 1));
    for (std::size_t i = 0; i < g.size(); ++i) {
        for (NodeId input : g.node(static_cast<NodeId>(i)).inputs)
            QVERIFY(input < static_cast<NodeId>(i));
    }
}

// The same joint graph from TORCH_LOGS (prefixed lines, followed by forward and backward graphs)
// and from a raw TORCH_TRACE file (tab-indented payload).
void TestPrintedGraphReader::sameJointFromEveryLogFormat_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("producer");
    QTest::addRow("TORCH_LOGS") << QStringLiteral("handwritten/aot_graphs.torch_logs.log")
                                << QStringLiteral("printed FX graph (TORCH_LOGS: Joint graph 0)");
    QTest::addRow("TORCH_TRACE") << QStringLiteral("handwritten/joint.torch_trace.log")
                                 << QStringLiteral("printed FX graph (TORCH_TRACE: aot_joint_graph)");
}

void TestPrintedGraphReader::sameJointFromEveryLogFormat()
{
    QFETCH(QString, file);
    QFETCH(QString, producer);
    const JointGraph g = readPrintedGraphFile(dataFile(file));
    QCOMPARE(q(g.source().producer), producer);
    QCOMPARE(q(g.source().description), QStringLiteral("class joint_helper"));
    QCOMPARE(g.kind(), GraphKind::Joint);
    QCOMPARE(g.size(), std::size_t(11));
    QCOMPARE(g.numFwdOutputs(), 1);
    QCOMPARE(outputNames(g), QStringLiteral("sum_1,None,mm_1"));
    QStringList names;
    for (const Node& n : g.nodes())
        names << q(n.name);
    QCOMPARE(names.join(QLatin1Char(' ')),
        QStringLiteral(
            "primals_1 primals_2 tangents_1 mm gelu sum_1 expand gelu_backward permute mm_1 output"));
    const Node& expand = nodeNamed(g, "expand");
    QCOMPARE(metaText(expand.tensor()), QStringLiteral("float32[8, 8][0, 0]cpu"));
    QCOMPARE(argsOf(g, expand), QStringLiteral("[%tangents_1, [8, 8]]"));
    QCOMPARE(metaText(nodeNamed(g, "tangents_1").tensor()), QStringLiteral("float32[][]cpu"));
    QCOMPARE(q(nodeNamed(g, "mm").meta.source->stackTrace),
        QStringLiteral("File: /tmp/repro.py:5 in f, code: return torch.nn.functional.gelu(x @ w).sum()"));
    QVERIFY(nodeNamed(g, "primals_1").meta.source->stackTrace.empty());
}

void TestPrintedGraphReader::checkpointTags()
{
    // tlparse's aot_joint_graph artifact with torch 2.9's expanded def and output descriptors.
    const JointGraph g
        = readPrintedGraphFile(dataFile(QStringLiteral("handwritten/checkpoint_tags.tlparse.txt")));
    QCOMPARE(g.kind(), GraphKind::Joint);
    QCOMPARE(g.size(), std::size_t(15));
    QCOMPARE(g.numFwdOutputs(), 1);
    QCOMPARE(outputNames(g), QStringLiteral("sigmoid,mul,mm_1"));
    for (const char* name : {"mm", "sigmoid"}) {
        const Node& n = nodeNamed(g, name);
        QCOMPARE(n.meta.recompute, CheckpointPolicy::PreferRecompute);
        QCOMPARE(n.meta.acGraphId, std::optional<std::int64_t>(1));
        QCOMPARE(q(n.meta.source->stackTrace),
            QStringLiteral("File: /tmp/test_ac.py:10 in gn, code: return torch.sigmoid(torch.matmul(x, y))"));
    }
    for (const char* name : {"primals_1", "sin", "detach", "mm_2", "cos", "mul"}) {
        const Node& n = nodeNamed(g, name);
        QCOMPARE(n.meta.recompute, CheckpointPolicy::None);
        QVERIFY(!n.meta.acGraphId);
    }
    QVERIFY(
        nodeNamed(g, "detach").meta.source->stackTrace.empty()); // "No stacktrace found for following nodes"
    QVERIFY(q(nodeNamed(g, "cos").meta.source->stackTrace)
                .startsWith(QStringLiteral("File: /tmp/test_ac.py:14 in fn")));
    QCOMPARE(metaText(nodeNamed(g, "permute").tensor()), QStringLiteral("float32[4, 4][1, 4]cpu"));
}

// Where each node was traced (meta["partitioner_tag"], not printed): the forward ends before the
// first node that reads a tangent or carries 2.14's "Backward of forward node" mark. This older
// print has no marks, so the tangents alone decide; past that point a node with neither stays
// untagged, as the input mutations at the end of a joint graph must.
void TestPrintedGraphReader::placementFromTangentsAndMarks()
{
    const JointGraph g
        = readPrintedGraphFile(dataFile(QStringLiteral("handwritten/checkpoint_tags.tlparse.txt")));
    for (const char* name : {"primals_1", "primals_2", "sin", "mm", "sigmoid", "detach"})
        QCOMPARE(nodeNamed(g, name).meta.partitionerTag, PartitionerTag::IsForward);
    for (const char* name : {"tangents_1", "sigmoid_backward", "mm_1", "mm_2", "mul"})
        QCOMPARE(nodeNamed(g, name).meta.partitionerTag, PartitionerTag::IsBackward);
    // These come after the first tangent reader, read no tangent and have no mark.
    for (const char* name : {"permute", "permute_1", "cos"})
        QCOMPARE(nodeNamed(g, name).meta.partitionerTag, PartitionerTag::None);

    const JointGraph forward = readPrintedGraphFile(dataFile(QStringLiteral("mlp_relu_fw.torch113.txt")));
    for (const Node& node : forward.nodes())
        QCOMPARE(node.meta.partitionerTag, PartitionerTag::None);
}

// TORCH_LOGS=aot_graphs alone prints the forward and backward graphs PyTorch partitioned, not the
// joint graph: the forward one opens, and partitioning it says where the joint graph would be.
void TestPrintedGraphReader::partitionedGraphsPointToTheJointGraph()
{
    const std::string log = readFileText(dataFile(QStringLiteral("handwritten/aot_graphs.torch_logs.log")));
    // From the TRACED GRAPH line above the forward graph's header.
    const std::size_t header = log.rfind('\n', log.find("===== Forward graph 0"));
    const JointGraph g = readPrintedGraphText(log.substr(log.rfind('\n', header - 1) + 1), "aot_graphs.log");
    QCOMPARE(g.kind(), GraphKind::Forward);
    QString message;
    try {
        partitionGraph(g, PartitionOptions {});
    } catch (const Error& e) {
        message = QString::fromStdString(e.what());
    }
    QVERIFY2(message.startsWith(
                 QStringLiteral("aot_graphs.log: a forward-only graph has no backward to partition")),
        qPrintable(message));
    QVERIFY2(message.contains(QStringLiteral("print it too with TORCH_LOGS=aot_joint_graph")),
        qPrintable(message));
}

void TestPrintedGraphReader::selectiveCheckpoint()
{
    const JointGraph g = readPrintedGraphFile(
        dataFile(QStringLiteral("handwritten/selective_checkpoint.print_readable.txt")));
    QCOMPARE(g.kind(), GraphKind::Joint);
    QCOMPARE(g.size(), std::size_t(62));
    QCOMPARE(g.numFwdOutputs(), 2);
    QCOMPARE(outputNames(g), QStringLiteral("div,getitem,getitem_3,getitem_4,getitem_5,mm_1,None"));
    // "# # ac_graph_id: 2 - MUST_SAVE ..." (the double-hash spelling of some 2.x releases)
    QCOMPARE(nodeNamed(g, "mm").meta.recompute, CheckpointPolicy::MustSave);
    QCOMPARE(nodeNamed(g, "mm").meta.acGraphId, std::optional<std::int64_t>(2));
    QCOMPARE(nodeNamed(g, "relu").meta.recompute, CheckpointPolicy::PreferRecompute);
    // "# Annotation: {...} # recompute: MUST_SAVE File: ..." has a policy and no ac_graph_id.
    QCOMPARE(nodeNamed(g, "amax").meta.recompute, CheckpointPolicy::MustSave);
    QVERIFY(!nodeNamed(g, "amax").meta.acGraphId);
    QCOMPARE(q(nodeNamed(g, "where_4").meta.source->stackTrace),
        QStringLiteral(
            "Backward of forward node: File: /work/sac.py:26 in block, code: return torch.relu(h).float()"));
    QCOMPARE(nodeNamed(g, "permute").meta.recompute, CheckpointPolicy::None);
    // " # File:" with a leading space (some 2.x releases) is still the summary.
    QVERIFY(q(nodeNamed(g, "native_layer_norm").meta.source->stackTrace)
                .startsWith(QStringLiteral("File: /work/sac.py:21")));

    // Tuple-returning nodes are printed without annotation: their getitem users give the elements.
    const Node& norm = nodeNamed(g, "native_layer_norm");
    QCOMPARE(norm.valueKind, ValueKind::TensorList);
    QCOMPARE(norm.values.size(), std::size_t(3));
    QCOMPARE(metaText(*norm.values[0]), QStringLiteral("float32[8, 16][]"));
    QCOMPARE(metaText(*norm.values[2]), QStringLiteral("float32[8, 1][]"));
    QVERIFY(!norm.hasTensorMeta());
    QCOMPARE(nodeNamed(g, "mm").tensor().dtype, Dtype::BFloat16);
    QCOMPARE(nodeNamed(g, "ne").tensor().dtype, Dtype::Bool);
    QCOMPARE(nodeNamed(g, "primals_5").tensor().dtype, Dtype::Int64);
    QCOMPARE(nodeNamed(g, "tangents_1").tensor().shape.size(), std::size_t(0));
    QCOMPARE(nodeNamed(g, "tangents_1").tensor().bytes(), std::int64_t(4));
    QCOMPARE(kwargsOf(g, nodeNamed(g, "full_default")),
        QStringLiteral("{'dtype': repr(torch.int64), 'layout': repr(torch.strided), "
                       "'device': repr(device(type='cpu')), 'pin_memory': False}"));
    QCOMPARE(argsOf(g, nodeNamed(g, "scatter")), QStringLiteral("[%full_default_3, 1, %where_2, -1f]"));
    QCOMPARE(q(g.opOf(g.find("convert_element_type")).target),
        QStringLiteral("prims.convert_element_type.default"));
}

void TestPrintedGraphReader::forwardGraphs_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("nodes");
    QTest::addColumn<QString>("outputs");
    QTest::addColumn<bool>("sized");
    QTest::addRow("colored TORCH_LOGS") << QStringLiteral("handwritten/forward_graph.colored.log") << 6
                                        << QStringLiteral("sum_1,primals_1,mm") << true;
    QTest::addRow("partitioned 1.13") << QStringLiteral("mlp_relu_fw.torch113.txt") << 12
                                      << QStringLiteral("addmm_1,primals_5,relu,t_2") << false;
    QTest::addRow("symbolic_trace 1.13")
        << QStringLiteral("fx_forward.torch113.txt") << 20 << QStringLiteral("truediv,neg") << false;
}

void TestPrintedGraphReader::forwardGraphs()
{
    QFETCH(QString, file);
    QFETCH(int, nodes);
    QFETCH(QString, outputs);
    QFETCH(bool, sized);
    const JointGraph g = readPrintedGraphFile(dataFile(file));
    QCOMPARE(g.kind(), GraphKind::Forward);
    QCOMPARE(static_cast<int>(g.size()), nodes);
    QCOMPARE(outputNames(g), outputs);
    QCOMPARE(g.numFwdOutputs(), static_cast<int>(g.outputs().size()));
    QCOMPARE(g.bwdOutputs().size(), std::size_t(0));
    QCOMPARE(g.node(0).valueKind == ValueKind::Tensor, sized);
    if (sized)
        QCOMPARE(metaText(nodeNamed(g, "mm").tensor()), QStringLiteral("float32[8, 8][8, 1]cpu"));
}

void TestPrintedGraphReader::literals_data()
{
    QTest::addColumn<QString>("call");
    QTest::addColumn<QString>("args");
    QTest::addColumn<QString>("kwargs");
    QTest::addRow("ints") << QStringLiteral("1, -2, 0, 9223372036854775807, -9223372036854775808")
                          << QStringLiteral("[%x, 1, -2, 0, 9223372036854775807, -9223372036854775808]")
                          << "{}";
    QTest::addRow("floats") << QStringLiteral("1e-05, -0.5, 2.8284271247461903, 1.0, 0.17677669529663687")
                            << QStringLiteral(
                                   "[%x, 1e-05f, -0.5f, 2.8284271247461903f, 1f, 0.17677669529663687f]")
                            << "{}";
    QTest::addRow("non-finite") << QStringLiteral("inf, -inf, nan") << QStringLiteral("[%x, inf, -inf, nan]")
                                << "{}";
    QTest::addRow("constants") << QStringLiteral("True, False, None")
                               << QStringLiteral("[%x, True, False, None]") << "{}";
    QTest::addRow("strings") << QStringLiteral("'BNSD', \"it's\", 'a\\nb', '\\u00e9\\x41', 'x' 'y'")
                             << QStringLiteral("[%x, 'BNSD', 'it's', 'a\nb', '\u00e9A', 'xy']") << "{}";
    QTest::addRow("containers") << QStringLiteral("[16], (), (1,), [[1, 2], (3, x)], []")
                                << QStringLiteral("[%x, [16], [], [1], [[1, 2], [3, %x]], []]") << "{}";
    QTest::addRow("reprs") << QStringLiteral(
        "torch.float32, torch.contiguous_format, device(type='cuda', index=0), "
        "slice(None, 2, None), 1j")
                           << QStringLiteral(
                                  "[%x, repr(torch.float32), repr(torch.contiguous_format), "
                                  "repr(device(type='cuda', index=0)), repr(slice(None, 2, None)), repr(1j)]")
                           << "{}";
    QTest::addRow("keywords") << QStringLiteral(
        "[4, 4], dtype = torch.bool, layout = torch.strided, pin_memory = False")
                              << QStringLiteral("[%x, [4, 4]]")
                              << QStringLiteral("{'dtype': repr(torch.bool), 'layout': repr(torch.strided), "
                                                "'pin_memory': False}");
    QTest::addRow("dict") << QStringLiteral("{'a': 1, 'b': x}") << QStringLiteral("[%x, {'a': 1, 'b': %x}]")
                          << "{}";
    QTest::addRow("multi-line") << QStringLiteral("[\n            1,  # first\n            2,\n        ]")
                                << QStringLiteral("[%x, [1, 2]]") << "{}";
}

void TestPrintedGraphReader::literals()
{
    QFETCH(QString, call);
    QFETCH(QString, args);
    QFETCH(QString, kwargs);
    const JointGraph g = readPrintedGraphText(
        oneNodeGraph(QStringLiteral("y = torch.ops.aten.foo.default(x, %1)").arg(call)), "t.txt");
    const Node& y = nodeNamed(g, "y");
    QCOMPARE(argsOf(g, y), args);
    QCOMPARE(kwargsOf(g, y), kwargs);
    QCOMPARE(y.inputs, std::vector<NodeId> {0});
}

void TestPrintedGraphReader::targets_data()
{
    QTest::addColumn<QString>("rhs");
    QTest::addColumn<NodeOp>("op");
    QTest::addColumn<QString>("target");
    QTest::addColumn<QString>("args");
    const auto fn = NodeOp::CallFunction;
    QTest::addRow("aten") << "torch.ops.aten.mm.default(x, x)" << fn << "aten.mm.default"
                          << "[%x, %x]";
    QTest::addRow("prims") << "torch.ops.prims.convert_element_type.default(x, torch.float16)" << fn
                           << "prims.convert_element_type.default"
                           << "[%x, repr(torch.float16)]";
    QTest::addRow("higher order") << "torch.ops.higher_order.tag_activation_checkpoint(x)" << fn
                                  << "higher_order.tag_activation_checkpoint"
                                  << "[%x]";
    QTest::addRow("subscript") << "x[0]" << fn << "_operator.getitem"
                               << "[%x, 0]";
    QTest::addRow("slices") << "x[(slice(None, None, None), 0)]" << fn << "_operator.getitem"
                            << "[%x, [repr(slice(None, None, None)), 0]]";
    QTest::addRow("operator.getitem") << "operator.getitem(x, 1)" << fn << "_operator.getitem"
                                      << "[%x, 1]";
    QTest::addRow("mangled operator") << "operator_not_(x)" << fn << "_operator.not_"
                                      << "[%x]";
    QTest::addRow("add") << "x + 1" << fn << "_operator.add"
                         << "[%x, 1]";
    QTest::addRow("truediv") << "x / x" << fn << "_operator.truediv"
                             << "[%x, %x]";
    QTest::addRow("floordiv") << "x // 2" << fn << "_operator.floordiv"
                              << "[%x, 2]";
    QTest::addRow("pow") << "x ** 2" << fn << "_operator.pow"
                         << "[%x, 2]";
    QTest::addRow("matmul") << "x @ x" << fn << "_operator.matmul"
                            << "[%x, %x]";
    QTest::addRow("eq") << "x == -1" << fn << "_operator.eq"
                        << "[%x, -1]";
    QTest::addRow("neg") << "-x" << fn << "_operator.neg"
                         << "[%x]";
    QTest::addRow("invert") << "~x" << fn << "_operator.invert"
                            << "[%x]";
    QTest::addRow("attribute") << "x.shape" << fn << "builtins.getattr"
                               << "[%x, 'shape']";
    QTest::addRow("getattr") << "getattr(x, 'shape')" << fn << "builtins.getattr"
                             << "[%x, 'shape']";
    QTest::addRow("len") << "len(x)" << fn << "builtins.len"
                         << "[%x]";
    QTest::addRow("torch function") << "torch.sum(x)" << fn << "torch.sum"
                                    << "[%x]";
    QTest::addRow("nn.functional") << "torch.nn.functional.relu(x, inplace = False)" << fn
                                   << "torch.nn.functional.relu"
                                   << "[%x]";
    QTest::addRow("math") << "math.sqrt(x)" << fn << "math.sqrt"
                          << "[%x]";
    QTest::addRow("method") << "x.view(4, -1)" << NodeOp::CallMethod << "view"
                            << "[%x, 4, -1]";
    QTest::addRow("module") << "self.linear(x)" << NodeOp::CallModule << "linear"
                            << "[%x]";
    QTest::addRow("nested module") << "self.encoder.layers(x)" << NodeOp::CallModule << "encoder.layers"
                                   << "[%x]";
    QTest::addRow("indexed module") << "getattr(self.layers, \"0\")(x)" << NodeOp::CallModule << "layers.0"
                                    << "[%x]";
    QTest::addRow("get_attr") << "self.weight" << NodeOp::GetAttr << "weight"
                              << "[]";
    QTest::addRow("indexed get_attr")
        << "getattr(self.layers, \"0\").weight" << NodeOp::GetAttr << "layers.0.weight"
        << "[]";
}

void TestPrintedGraphReader::targets()
{
    QFETCH(QString, rhs);
    QFETCH(NodeOp, op);
    QFETCH(QString, target);
    QFETCH(QString, args);
    const JointGraph g = readPrintedGraphText(oneNodeGraph(QStringLiteral("y = ") + rhs), "t.txt");
    const NodeId y = g.find("y");
    QCOMPARE(g.node(y).op, op);
    QCOMPARE(q(g.opOf(y).target), target);
    QCOMPARE(argsOf(g, g.node(y)), args);
}

void TestPrintedGraphReader::annotations_data()
{
    QTest::addColumn<QString>("annotation");
    QTest::addColumn<ValueKind>("kind");
    QTest::addColumn<QString>("value");
    QTest::addRow("shape") << "f32[8, 16]" << ValueKind::Tensor << "float32[8, 16][]";
    QTest::addRow("stride and device")
        << "f32[8, 16][16, 1]cuda:0" << ValueKind::Tensor << "float32[8, 16][16, 1]cuda:0";
    QTest::addRow("scalar") << "bf16[]" << ValueKind::Tensor << "bfloat16[][]";
    QTest::addRow("scalar with stride") << "f32[][]cpu" << ValueKind::Tensor << "float32[][]cpu";
    QTest::addRow("bool") << "b8[2]" << ValueKind::Tensor << "bool[2][]";
    QTest::addRow("int64") << "i64[2, 3]" << ValueKind::Tensor << "int64[2, 3][]";
    QTest::addRow("uint8") << "u8[3]" << ValueKind::Tensor << "uint8[3][]";
    QTest::addRow("fp8") << "f8e4m3fn[4]" << ValueKind::Tensor << "float8_e4m3fn[4][]";
    QTest::addRow("fp8 e5m2") << "f8e5m2[4]" << ValueKind::Tensor << "float8_e5m2[4][]";
    QTest::addRow("complex") << "c64[2]" << ValueKind::Tensor << "complex64[2][]";
    QTest::addRow("complex128") << "c128[2]" << ValueKind::Tensor << "complex128[2][]";
    QTest::addRow("half") << "f16[1, 2, 3]" << ValueKind::Tensor << "float16[1, 2, 3][]";
    QTest::addRow("double") << "f64[5]" << ValueKind::Tensor << "float64[5][]";
    QTest::addRow("int8") << "i8[5]" << ValueKind::Tensor << "int8[5][]";
    QTest::addRow("tensor subclass") << "DTensor(f32[8, 16], S(0))" << ValueKind::Tensor
                                     << "float32[8, 16][]";
    QTest::addRow("tuple") << "(f32[8], None, i64[8])" << ValueKind::TensorList
                           << "float32[8][],None,int64[8][]";
    QTest::addRow("symint") << "Sym(s0)" << ValueKind::Symbolic << "";
    QTest::addRow("symint value") << "Sym(4)" << ValueKind::Symbolic << "";
    QTest::addRow("opaque") << "BackwardState" << ValueKind::None << "";
}

void TestPrintedGraphReader::annotations()
{
    QFETCH(QString, annotation);
    QFETCH(ValueKind, kind);
    QFETCH(QString, value);
    const JointGraph g = readPrintedGraphText(
        oneNodeGraph(QStringLiteral("y: \"%1\" = torch.ops.aten.relu.default(x)").arg(annotation)), "t.txt");
    const Node& y = nodeNamed(g, "y");
    QCOMPARE(y.valueKind, kind);
    QStringList values;
    for (const auto& v : y.values)
        values << (v ? metaText(*v) : QStringLiteral("None"));
    QCOMPARE(values.join(QLatin1Char(',')), value);
}

void TestPrintedGraphReader::logPrefixes_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("producer");
    const QString graph = QStringLiteral(
        "TRACED GRAPH\n"
        " ===== Joint graph 3 =====\n"
        " <eval_with_key>.7 class joint_helper(torch.nn.Module):\n"
        "    def forward(self, primals, tangents):\n"
        "        primals_1: \"f32[4][1]cpu\"; tangents_1: \"f32[4][1]cpu\"; \n"
        "    \n"
        "        primals_1, tangents_1, = fx_pytree.tree_flatten_spec([primals, tangents], self._in_spec)\n"
        "        sin: \"f32[4][1]cpu\" = torch.ops.aten.sin.default(primals_1)\n"
        "        cos: \"f32[4][1]cpu\" = torch.ops.aten.cos.default(primals_1);  primals_1 = None\n"
        "        mul: \"f32[4][1]cpu\" = torch.ops.aten.mul.Tensor(tangents_1, cos);  tangents_1 = cos = "
        "None\n"
        "        return pytree.tree_unflatten([sin, mul], self._out_spec)\n"
        "        \n");
    const auto prefixed = [&](const QString& prefix) {
        QString out;
        for (const QString& line : graph.split(QLatin1Char('\n'), Qt::SkipEmptyParts))
            out += prefix + line + QLatin1Char('\n');
        return out;
    };
    const QString joint = QStringLiteral("printed FX graph (TORCH_LOGS: Joint graph 3)");
    QTest::addRow("torch 2.4+") << prefixed(QStringLiteral(
        "I0614 10:22:13.456000 140212 torch/_functorch/_aot_autograd/dispatch_and_compile_graph.py:204] "
        "[0/0] "
        "[__aot_joint_graph] ")) << joint;
    QTest::addRow("rank prefix") << prefixed(QStringLiteral(
        "[rank1]:I0614 10:22:13.456000 7 torch/_functorch/_aot_autograd/dispatch_and_compile_graph.py:204] "
        "[0/0] "
        "[__aot_joint_graph] ")) << joint;
    QTest::addRow("torch 2.1") << prefixed(QStringLiteral(
        "[2023-10-12 10:22:13,456] [0/0] torch._functorch.aot_autograd.__aot_joint_graph: [INFO] "))
                               << joint;
    QTest::addRow("prefix on the first line only")
        << QStringLiteral("INFO:torch._functorch.aot_autograd:") + graph << joint;
    QTest::addRow("no prefix") << graph << joint;
    QTest::addRow("CRLF")
        << prefixed(QStringLiteral("I0614 1 x.py:2] ")).replace(QStringLiteral("\n"), QStringLiteral("\r\n"))
        << joint;
    QTest::addRow("forward record first")
        << prefixed(QStringLiteral("I0614 1 x.py:9] [__aot_graphs] "))
                .replace(QStringLiteral("Joint graph 3"), QStringLiteral("Forward graph 3"))
                .replace(QStringLiteral("tangents_1"), QStringLiteral("primals_2"))
            + prefixed(QStringLiteral("I0614 2 x.py:2] "))
        << joint;
    QTest::addRow("print_readable") << graph.mid(graph.indexOf(QStringLiteral("class")))
                                    << QStringLiteral("printed FX graph (print_readable)");
    QTest::addRow("gm.code, no class") << QStringLiteral("\n\n\ndef forward(self, primals, tangents):\n")
            + graph.mid(graph.indexOf(QStringLiteral("        primals_1:")))
                  .replace(QStringLiteral("\n    "), QStringLiteral("\n"))
                                       << QStringLiteral("printed FX graph (print_readable)");
}

void TestPrintedGraphReader::logPrefixes()
{
    QFETCH(QString, text);
    QFETCH(QString, producer);
    const JointGraph g = readPrintedGraphText(text.toStdString(), "log.txt");
    QCOMPARE(q(g.source().producer), producer);
    QCOMPARE(g.kind(), GraphKind::Joint);
    QCOMPARE(g.size(), std::size_t(6));
    QCOMPARE(outputNames(g), QStringLiteral("sin,mul"));
    QCOMPARE(g.numFwdOutputs(), 1);
    QCOMPARE(metaText(nodeNamed(g, "cos").tensor()), QStringLiteral("float32[4][1]cpu"));
}

void TestPrintedGraphReader::placeholderRename()
{
    // FX prints `x_1 = x` when a placeholder's node name differs from its parameter name.
    const JointGraph g = readPrintedGraphText("class M(torch.nn.Module):\n"
                                              "    def forward(self, x):\n"
                                              "        x_1 = x\n"
                                              "        relu = torch.relu(x_1);  x_1 = None\n"
                                              "        return relu\n",
        "rename.txt");
    QCOMPARE(g.size(), std::size_t(3));
    QCOMPARE(q(g.node(0).name), QStringLiteral("x_1"));
    QCOMPARE(q(g.opOf(0).target), QStringLiteral("x"));
    QCOMPARE(argsOf(g, nodeNamed(g, "relu")), QStringLiteral("[%x_1]"));
    QCOMPARE(outputNames(g), QStringLiteral("relu"));
    QCOMPARE(g.kind(), GraphKind::Forward);
    QVERIFY(!g.findOp("_operator.getitem")); // only targets that nodes use are interned
}

// The compile id a TORCH_LOGS prefix names; a rank, a 2.1 timestamp or a logger tag is none.
void TestPrintedGraphReader::compileIdsOfLogPrefixes()
{
    using printed::compileIdIn;
    QCOMPARE(compileIdIn("I1128 05:25:55.850000 4935 torch/x.py:1803] [0/0_1] [__aot_joint_graph] "),
        std::string("0/0_1"));
    QCOMPARE(
        compileIdIn("[rank1]:I0614 10:22:13.456000 7 x.py:204] [1/0] [__aot_graphs] "), std::string("1/0"));
    QCOMPARE(compileIdIn("[2023-10-12 10:22:13,456] [0/0] torch._functorch.aot_autograd.__aot_joint_graph: "),
        std::string("0/0"));
    QCOMPARE(compileIdIn("I0614 x.py:9] [!0/1/0] [__aot_graphs] "), std::string("!0/1/0"));
    QCOMPARE(compileIdIn("INFO:torch._functorch.aot_autograd:"), std::string());
    QCOMPARE(compileIdIn("[rank0]: [__aot_joint_graph] [/] [0_1]"), std::string());
    // Found in one pass: a fuzzed prefix of 200 000 '[' took seconds when each '[' looked for its ']'.
    QCOMPARE(compileIdIn(std::string(200000, '[') + "[3/0]"), std::string("3/0"));
}

void TestPrintedGraphReader::skipsWhatIsNotTheGraph()
{
    // Imports and wrap() calls before the class, FX_GRAPH_SHOW_META docstrings between nodes, and the
    // submodules print_readable prints after forward() (higher-order op bodies) are not nodes.
    const JointGraph g = readPrintedGraphText(
        "from __future__ import annotations\n"
        "import torch\n"
        "class GraphModule(torch.nn.Module):\n"
        "    def forward(self, primals_1: \"f32[4]\", primals_2: \"f32[4]\"):\n"
        "        wrap_body_0 = self.wrap_body_0\n"
        "        \"\"\"\n"
        "        val: 'FakeTensor(..., size=(4,))'\n"
        "        \"\"\"\n"
        "        tag_activation_checkpoint = torch.ops.higher_order.tag_activation_checkpoint(wrap_body_0, "
        "primals_1, primals_2, use_reentrant = False);  wrap_body_0 = None\n"
        "        getitem: \"f32[4]\" = tag_activation_checkpoint[0];  tag_activation_checkpoint = None\n"
        "        return (getitem,)\n"
        "        \n"
        "    class wrap_body_0(torch.nn.Module):\n"
        "        def forward(self, primals_1: \"f32[4]\", primals_2: \"f32[4]\"):\n"
        "            mul: \"f32[4]\" = torch.ops.aten.mul.Tensor(primals_1, primals_2)\n"
        "            return (mul,)\n",
        "hop.txt");
    QCOMPARE(g.size(), std::size_t(6));
    QCOMPARE(g.kind(), GraphKind::Forward);
    QCOMPARE(g.node(g.find("wrap_body_0")).op, NodeOp::GetAttr);
    const Node& hop = nodeNamed(g, "tag_activation_checkpoint");
    QCOMPARE(argsOf(g, hop), QStringLiteral("[%wrap_body_0, %primals_1, %primals_2]"));
    QCOMPARE(kwargsOf(g, hop), QStringLiteral("{'use_reentrant': False}"));
    QCOMPARE(hop.valueKind, ValueKind::TensorList);
    QCOMPARE(g.find("mul"), kNoNode);
}

void TestPrintedGraphReader::errorsInFiles_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("line"); // 0: the message names the file only
    QTest::addColumn<QString>("message");
    QTest::addRow("unknown statement") << "unknown_statement.txt" << 5 << "unknown statement 'relu += 1'";
    QTest::addRow("unbalanced brackets")
        << "unbalanced_brackets.txt" << 4 << "unbalanced brackets: the '(' opened here is never closed";
    QTest::addRow("mismatched bracket") << "mismatched_bracket.txt" << 4
                                        << "unbalanced brackets: ')' does not match the '[' opened on line 4";
    QTest::addRow("undefined name") << "undefined_name.txt" << 5
                                    << "node 'threshold_backward': 'tangents_2' is not defined";
    QTest::addRow("use before definition")
        << "use_before_definition.txt" << 4 << "'relu' is used before it is defined (on line 5)";
    QTest::addRow("unknown dtype") << "unknown_dtype.txt" << 4
                                   << "unknown dtype 'q7' in the annotation \"q7[4, 4]\"";
    QTest::addRow("second return") << "second_return.txt" << 6
                                   << "a second return statement (the first is on line 5)";
    QTest::addRow("no return") << "no_return.txt" << 5 << "the function ends without a return statement";
    QTest::addRow("symbolic shapes") << "symbolic_shapes.txt" << 3 << "symbolic size 's0'";
    QTest::addRow("partitioned backward")
        << "partitioned_backward.txt" << 2 << "input 'mm' is neither primals_* nor tangents_*";
    QTest::addRow("unknown policy") << "unknown_policy.txt" << 3
                                    << "unknown checkpoint policy 'PREFER_LATER'";
    QTest::addRow("duplicate name") << "duplicate_name.txt" << 4
                                    << "a second node named 'relu' (the first is on line 3)";
    QTest::addRow("too few outputs") << "too_few_outputs.txt" << 5 << "returns 1 values for 2 primals";
    QTest::addRow("unterminated string") << "unterminated_string.txt" << 3 << "unterminated string";
    QTest::addRow("strides") << "bad_annotation.txt" << 2 << "has 2 sizes but 1 strides";
    QTest::addRow("not a graph") << "not_a_graph.txt" << 0 << "no printed FX graph found";
    QTest::addRow("empty") << "empty.txt" << 0 << "no printed FX graph found";
}

void TestPrintedGraphReader::errorsInFiles()
{
    QFETCH(QString, file);
    QFETCH(int, line);
    QFETCH(QString, message);
    const std::string path = dataFile(QStringLiteral("malformed/") + file);
    QString error;
    try {
        readPrintedGraphFile(path);
        QFAIL("no error");
    } catch (const Error& e) {
        error = QString::fromUtf8(e.what());
    }
    const QString where = q(path) + (line ? QStringLiteral(":%1: ").arg(line) : QStringLiteral(": "));
    QVERIFY2(error.startsWith(where), qPrintable(error));
    QVERIFY2(error.contains(message), qPrintable(error));
}

void TestPrintedGraphReader::errorsInline_data()
{
    QTest::addColumn<QString>("statement");
    QTest::addColumn<QString>("message");
    QTest::addRow("chained") << "y = z = torch.relu(x)"
                             << "chained assignments";
    QTest::addRow("bare call") << "y = x; torch.relu(x)"
                               << "an expression that is not assigned to a name";
    QTest::addRow("integer too large") << "y = torch.ops.aten.add.Scalar(x, 99999999999999999999)"
                                       << "integer too large";
    QTest::addRow("integer overflow") << "y = torch.ops.aten.add.Scalar(x, 9223372036854775808)"
                                      << "integer too large";
    QTest::addRow("node in a repr") << "y = torch.ops.aten.slice.Tensor(x, slice(None, x, None))"
                                    << "refers to node 'x'";
    QTest::addRow("expression argument") << "y = torch.ops.aten.add.Tensor(x, x + 1)"
                                         << "unexpected expression 'x + 1' in the arguments";
    QTest::addRow("none for an unknown name") << "foo = None"
                                              << "'foo' is set to None but is not a node";
    QTest::addRow("copy of a node") << "z = torch.relu(x); y = z"
                                    << "a plain copy of 'z' is not an FX node";
    QTest::addRow("constant") << "y = 3"
                              << "'3' is a constant, not a node";
    QTest::addRow("negative constant") << "y = -3"
                                       << "'-3' is a constant, not a node";
    QTest::addRow("node as callee") << "y = x(x)"
                                    << "cannot read the right-hand side";
    QTest::addRow("deep nesting") << QStringLiteral("y = torch.foo(x, %1%2)")
                                         .arg(QString(300, QLatin1Char('[')), QString(300, QLatin1Char(']')))
                                  << "nested too deeply";
    QTest::addRow("long attribute chain")
        << QStringLiteral("y = torch%1(x)").arg(QStringLiteral(".a").repeated(5000)) << "nested too deeply";
    QTest::addRow("long operator chain")
        << QStringLiteral("y = x%1").arg(QStringLiteral(" + x").repeated(5000)) << "nested too deeply";
    QTest::addRow("long power chain")
        << QStringLiteral("y = x%1").arg(QStringLiteral(" ** x").repeated(5000)) << "nested too deeply";
    QTest::addRow("nested tuple annotation") << "y: \"((f32[2]))\" = torch.relu(x)"
                                             << "nested tuple";
    QTest::addRow("negative size") << "y: \"f32[-1]\" = torch.relu(x)"
                                   << "malformed size";
    QTest::addRow("unsupported dtype") << "y: \"b16[2]\" = torch.relu(x)"
                                       << "dtype 'b16'";
    QTest::addRow("symbolic stride") << "y: \"f32[4][s1]cpu\" = torch.relu(x)"
                                     << "symbolic stride 's1'";
    QTest::addRow("expression size") << "y: \"f32[2*s0]\" = torch.relu(x)"
                                     << "symbolic size '2*s0'";
    QTest::addRow("unclosed annotation") << "y: \"f32[2\" = torch.relu(x)"
                                         << "unbalanced brackets in the annotation";
    QTest::addRow("bad character") << "y = torch.relu(x) $"
                                   << "unexpected character '$'";
    QTest::addRow("annotation of a non-input") << "q: \"f32[2]\""
                                               << "an annotation of 'q', which is not an input";
    QTest::addRow("nested def") << "def helper(x):"
                                << "unknown statement 'def helper(x):'";
}

void TestPrintedGraphReader::errorsInline()
{
    QFETCH(QString, statement);
    QFETCH(QString, message);
    const QString error = readError(oneNodeGraph(statement), "inline.txt");
    QVERIFY2(error.startsWith(QStringLiteral("inline.txt:3: ")), qPrintable(error));
    QVERIFY2(error.contains(message), qPrintable(error));
}

QTEST_GUILESS_MAIN(TestPrintedGraphReader)
#include "tst_printedgraphreader.moc"
