// SPDX-License-Identifier: MIT
// The format v1 reader: good files load completely, bad ones fail with a message that names
// the file, the node or the line/column, and what is wrong.
#include "graph/error.h"
#include "io/joint_graph_reader.h"

#include <QTest>

using namespace remat;

namespace {

// A small valid joint graph: y = cos(x) * w, with its backward.
const char* const kValid = R"({"format":"joint-graph","version":1,"num_fwd_outputs":1,
 "source":{"producer":"hand","model":"tiny"},
 "nodes":[
  {"name":"primals_1","op":"placeholder","target":"primals_1","args":[],"kwargs":{},
   "val":{"shape":[8,8],"dtype":"float32","stride":[8,1],"device":"cpu"},"meta":{}},
  {"name":"primals_2","op":"placeholder","target":"primals_2","args":[],"kwargs":{},
   "val":{"shape":[8,8],"dtype":"float32","stride":[8,1],"device":"cpu"},"meta":{}},
  {"name":"tangents_1","op":"placeholder","target":"tangents_1","args":[],"kwargs":{},
   "val":{"shape":[8,8],"dtype":"float32","stride":[8,1],"device":"cpu"},"meta":{}},
  {"name":"cos","op":"call_function","target":"aten.cos.default","args":[{"node":"primals_1"}],"kwargs":{},
   "val":{"shape":[8,8],"dtype":"float32","stride":[8,1],"device":"cpu"},"meta":{}},
  {"name":"mul","op":"call_function","target":"aten.mul.Tensor","args":[{"node":"cos"},{"node":"primals_2"}],
   "kwargs":{"alpha":1.5,"memory_format":{"repr":"torch.contiguous_format"},"fill":{"repr":"-inf"}},
   "val":{"shape":[8,8],"dtype":"float32","stride":[8,1],"device":"cpu"},
   "meta":{"recompute":"MUST_SAVE","ac_graph_id":3,"partitioner_tag":"is_forward","nn_module_stack":["block","block.mlp"]}},
  {"name":"mul_1","op":"call_function","target":"aten.mul.Tensor","args":[{"node":"tangents_1"},{"node":"cos"}],"kwargs":{},
   "val":{"shape":[8,8],"dtype":"float32","stride":[8,1],"device":"cpu"},"meta":{}},
  {"name":"output","op":"output","target":"output","args":[[{"node":"mul"},null,{"node":"mul_1"}]],"kwargs":{},
   "val":null,"meta":{}}
 ],
 "reference":{"torch_version":"1.13.0a0","min_cut":{"saved_values":["cos"],"saved_sym_nodes":[],
   "fw_nodes":["primals_1","primals_2","cos","mul"],"bw_nodes":["cos","tangents_1","mul_1"],"seconds":0.01}}
})";

/// kValid with one substring replaced: the bad files below differ from a good one in one place.
QByteArray valid(const char* from = nullptr, const char* to = nullptr)
{
    QByteArray text(kValid);
    if (from) {
        const auto at = text.indexOf(from);
        Q_ASSERT_X(at >= 0, "valid", from);
        text.replace(at, qstrlen(from), to);
    }
    return text;
}

} // namespace

class TestJointGraphReader : public QObject {
    Q_OBJECT

private slots:
    void readsAValidGraph()
    {
        const JointGraph g = readJointGraphText(valid().toStdString(), "tiny.json");
        QCOMPARE(g.size(), std::size_t(7));
        QCOMPARE(g.numFwdOutputs(), 1);
        QCOMPARE(g.outputs().size(), std::size_t(3));
        QCOMPARE(g.outputs()[1], kNoNode); // None: a primal without gradient
        const NodeId mul = g.find("mul");
        QVERIFY(mul != kNoNode);
        QCOMPARE(g.opOf(mul).packet, std::string("aten.mul"));
        QCOMPARE(g.node(mul).inputs, (std::vector<NodeId> {g.find("cos"), g.find("primals_2")}));
        QCOMPARE(g.node(g.find("cos")).users, (std::vector<NodeId> {mul, g.find("mul_1")}));
        QCOMPARE(g.node(mul).meta.recompute, CheckpointPolicy::MustSave);
        QCOMPARE(g.node(mul).meta.acGraphId.value_or(-1), 3);
        QCOMPARE(g.node(mul).meta.partitionerTag, PartitionerTag::IsForward);
        QCOMPARE(g.node(mul).meta.source->nnModuleStack.size(), std::size_t(2));
        QCOMPARE(g.node(mul).tensor().bytes(), 256);
        const auto kwargs = g.children(g.arg(g.node(mul).kwargs));
        QCOMPARE(kwargs.size(), std::size_t(6)); // three key/value pairs
        QCOMPARE(kwargs[1].kind, ArgKind::Float);
        QCOMPARE(kwargs[3].kind, ArgKind::Repr);
        QCOMPARE(g.string(kwargs[3].string), std::string("torch.contiguous_format"));
        QVERIFY(std::isinf(kwargs[5].real) && kwargs[5].real < 0);
        const RecordedPartition* recorded = g.recordedPartition("min_cut");
        QVERIFY(recorded);
        QCOMPARE(recorded->savedValues, std::vector<std::string> {"cos"});
        QCOMPARE(g.recordedTorchVersion(), std::string("1.13.0a0"));
    }

    // The exporter's torch 2.x keys: PyTorch ran inside torch.compile's TracingContext (DCE drops
    // dead random ops), and its decision also saved RNG states (not graph values: counted only).
    void readsWhereAndWithWhatRngStatesPyTorchPartitioned()
    {
        const JointGraph plain = readJointGraphText(valid().toStdString(), "tiny.json");
        QVERIFY(!plain.source().partitionedInsideCompile);
        QCOMPARE(plain.recordedPartition("min_cut")->savedRngStates, 0);
        const JointGraph g = readJointGraphText(
            valid(R"("producer":"hand")",
                R"("producer":"torch 2.14.1 torch.compile aot_autograd","partitioned_inside_compile":true)")
                .replace(R"("saved_sym_nodes":[],)", R"("saved_sym_nodes":[],"saved_rng_states":2,)")
                .toStdString(),
            "tiny.json");
        QVERIFY(g.source().partitionedInsideCompile);
        QCOMPARE(g.recordedPartition("min_cut")->savedRngStates, 2);
        QCOMPARE(g.recordedPartition("min_cut")->savedValues, std::vector<std::string> {"cos"});
    }

    void readsTheInputsNamesInTheModel()
    {
        // extra.input_names, as our exporter writes it: the inputs show what the model calls them.
        const JointGraph g = readJointGraphText(
            valid("\"reference\":",
                "\"extra\":{\"input_names\":{\"primals_1\":\"fc1.weight\",\"primals_2\":\"x\"}},"
                "\"reference\":")
                .toStdString(),
            "tiny.json");
        QCOMPARE(g.node(g.find("primals_1")).meta.source->inputName, std::string("fc1.weight"));
        QCOMPARE(g.node(g.find("primals_2")).meta.source->inputName, std::string("x"));
        QVERIFY(g.node(g.find("tangents_1")).meta.source->inputName.empty());
        // A sample made by samples/make_samples.py.
        const JointGraph mlp = readJointGraphFile(REMAT_SOURCE_DIR "/samples/mlp.json");
        QCOMPARE(mlp.node(mlp.find("primals_1")).meta.source->inputName, std::string("net.0.weight"));
        QCOMPARE(mlp.node(mlp.find("primals_7")).meta.source->inputName, std::string("x"));
    }

    void freesTheTextItWasGiven()
    {
        // Given away, the text is freed once parsed (the nodes reuse its memory), whether or not
        // it had the parser's padding to spare; what the graph keeps are its own copies.
        for (const std::size_t spare : {std::size_t(0), std::size_t(256)}) {
            std::string text = valid().toStdString();
            text.shrink_to_fit();
            text.reserve(text.size() + spare);
            const JointGraph g = readJointGraphText(std::move(text), "tiny.json");
            QCOMPARE(text.capacity(), std::string().capacity()); // NOLINT(bugprone-use-after-move)
            QCOMPARE(g.size(), std::size_t(7));
            QCOMPARE(g.node(g.find("mul")).meta.source->nnModuleStack.back(), std::string("block.mlp"));
            QCOMPARE(g.recordedPartition("min_cut")->fwNodes.back(), std::string("mul"));
        }
    }

    void savedSetsOnlyLeavesOutTheNodeLists()
    {
        // What the headless commands read: the decision, its seconds, no forward/backward lists.
        const JointGraph full = readJointGraphText(valid().toStdString(), "tiny.json", RecordedDetail::Full);
        const JointGraph lean
            = readJointGraphText(valid().toStdString(), "tiny.json", RecordedDetail::SavedSetsOnly);
        const RecordedPartition* all = full.recordedPartition("min_cut");
        const RecordedPartition* saved = lean.recordedPartition("min_cut");
        QVERIFY(all && saved);
        QCOMPARE(all->fwNodes.size(), std::size_t(4));
        QCOMPARE(all->bwNodes.size(), std::size_t(3));
        QVERIFY(saved->fwNodes.empty());
        QVERIFY(saved->bwNodes.empty());
        QCOMPARE(saved->savedValues, all->savedValues);
        QCOMPARE(saved->seconds, all->seconds);
        QCOMPARE(lean.size(), full.size());
    }

    void readsSymbolicValues()
    {
        // torch.compile(dynamic=True): a SymInt placeholder, and sizes by their example values.
        const QByteArray text
            = valid("\"val\":{\"shape\":[8,8],\"dtype\":\"float32\",\"stride\":[8,1],\"device\":\"cpu\"},"
                    "\"meta\":{}},\n  {\"name\":\"primals_2\"",
                "\"val\":{\"sym\":\"s0\",\"hint\":8,\"free_symbols\":[\"s0\"],\"binds\":\"s0\"},\"meta\":{}},"
                "\n  {\"name\":\"primals_2\"")
                  .replace(
                      "\"name\":\"cos\",\"op\":\"call_function\",\"target\":\"aten.cos.default\",\"args\":[{"
                      "\"node\":\"primals_1\"}],\"kwargs\":{},\n   "
                      "\"val\":{\"shape\":[8,8],\"dtype\":\"float32\",\"stride\":[8,1],\"device\":\"cpu\"}",
                      "\"name\":\"cos\",\"op\":\"call_function\",\"target\":\"aten.cos.default\",\"args\":[{"
                      "\"node\":\"primals_2\"}],\"kwargs\":{},\n   "
                      "\"val\":{\"shape\":[8,8],\"dtype\":\"float32\",\"stride\":[8,1],\"device\":\"cpu\","
                      "\"free_symbols\":[\"s1\",\"s0\"]}");
        const JointGraph g = readJointGraphText(text.toStdString(), "tiny.json");
        const Node& sym = g.node(g.find("primals_1"));
        QCOMPARE(sym.valueKind, ValueKind::Symbolic);
        QCOMPARE(sym.symbolic->expr, std::string("s0"));
        QCOMPARE(sym.symbolic->bindsSymbol, std::string("s0"));
        QVERIFY(!sym.symbolicFloat);
        QCOMPARE(sym.symbolic->freeSymbols, std::vector<std::string> {"s0"});
        const Node& cos = g.node(g.find("cos"));
        QCOMPARE(cos.valueKind, ValueKind::Tensor);
        QCOMPARE(cos.symbolic->freeSymbols, (std::vector<std::string> {"s0", "s1"})); // sorted
    }

    void rejectsBadInput_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("expected");
        QTest::addRow("empty file") << QByteArray("") << "tiny.json:1:1: malformed JSON";
        QTest::addRow("truncated") << valid().left(300)
                                   << "tiny.json:6:17: malformed JSON: Missing a closing quotation mark";
        QTest::addRow("trailing comma") << valid(
            "\"kwargs\":{},\n   \"val\":{\"shape\":[8,8]", "\"kwargs\":{},,\n   \"val\":{\"shape\":[8,8]")
                                        << "tiny.json:4:";
        QTest::addRow("not an object") << QByteArray("[1, 2]") << "expected a JSON object at the top level";
        QTest::addRow("other format")
            << valid("\"joint-graph\"", "\"fx-graph\"") << "\"format\" must be \"joint-graph\"";
        QTest::addRow("newer version")
            << valid("\"version\":1", "\"version\":2") << "format version 2 is not supported";
        QTest::addRow("no num_fwd_outputs")
            << valid("\"num_fwd_outputs\":1,", "") << "missing \"num_fwd_outputs\"";
        QTest::addRow("too many fwd outputs") << valid("\"num_fwd_outputs\":1",
            "\"num_fwd_outputs\":4") << "num_fwd_outputs is 4 but the output node 'output' has only 3";
        QTest::addRow("unknown node") << valid("{\"node\":\"primals_2\"}]", "{\"node\":\"primals_9\"}]")
                                      << "node 'mul': args[1]: refers to unknown node 'primals_9'";
        QTest::addRow("later node (cycle)")
            << valid("[{\"node\":\"primals_1\"}],\"kwargs\"", "[{\"node\":\"mul\"}],\"kwargs\"")
            << "node 'cos': args[0]: refers to 'mul', which does not come before it";
        QTest::addRow("no output node")
            << valid("\"op\":\"output\"", "\"op\":\"call_function\"") << "the graph has no output node";
        QTest::addRow("two output nodes") << valid(
            "\"name\":\"mul_1\",\"op\":\"call_function\",\"target\":\"aten.mul.Tensor\",\"args\":[{\"node\":"
            "\"tangents_1\"},{\"node\":\"cos\"}]",
            "\"name\":\"mul_1\",\"op\":\"output\",\"target\":\"output\",\"args\":[[{\"node\":\"cos\"}]]")
                                          << "node 'output' comes after the output node 'mul_1'";
        QTest::addRow("duplicate name")
            << valid("\"name\":\"mul_1\"", "\"name\":\"mul\"") << "node 'mul': a second node with this name";
        QTest::addRow("unknown op kind") << valid(
            "\"op\":\"call_function\",\"target\":\"aten.cos", "\"op\":\"call_func\",\"target\":\"aten.cos")
                                         << "node 'cos': op: unknown op \"call_func\"";
        QTest::addRow("negative size") << valid("\"val\":{\"shape\":[8,8],\"dtype\":\"float32\",\"stride\":["
                                                "8,1],\"device\":\"cpu\"},\"meta\":{}},\n  {\"name\":\"mul\"",
            "\"val\":{\"shape\":[8,-4],\"dtype\":\"float32\",\"stride\":[8,1],\"device\":\"cpu\"},\"meta\":{}"
            "},\n  {\"name\":\"mul\"") << "node 'cos': val.shape[1]: negative size -4";
        QTest::addRow("unknown dtype") << valid("\"dtype\":\"float32\",\"stride\":[8,1],\"device\":\"cpu\"},"
                                                "\"meta\":{}},\n  {\"name\":\"primals_2\"",
            "\"dtype\":\"float33\",\"stride\":[8,1],\"device\":\"cpu\"},\"meta\":{}},\n  "
            "{\"name\":\"primals_2\"") << "node 'primals_1': val.dtype: unknown dtype \"float33\"";
        QTest::addRow("shape not a list") << valid("\"val\":{\"shape\":[8,8]", "\"val\":{\"shape\":\"8x8\"")
                                          << "node 'primals_1': val.shape: expected a list of integers";
        QTest::addRow("name not a string")
            << valid("\"name\":\"cos\"", "\"name\":7") << "name: expected a non-empty string";
        QTest::addRow("args not a list")
            << valid("\"args\":[{\"node\":\"primals_1\"}]", "\"args\":{\"node\":\"primals_1\"}")
            << "node 'cos': args: expected a list";
        QTest::addRow("bad recompute tag")
            << valid("\"MUST_SAVE\"", "\"SAVE_PLEASE\"") << "node 'mul': meta.recompute: expected";
        QTest::addRow("sym not a string")
            << valid("\"val\":{\"shape\":[8,8]", "\"val\":{\"sym\":7,\"shape\":[8,8]")
            << "node 'primals_1': val.sym: expected the symbolic expression as a string";
        QTest::addRow("bad free_symbols")
            << valid("\"val\":{\"shape\":[8,8]", "\"val\":{\"free_symbols\":[1],\"shape\":[8,8]")
            << "node 'primals_1': val.free_symbols[0]: expected a symbol name";
        QTest::addRow("bad output args") << valid(
            "\"args\":[[{\"node\":\"mul\"},null,{\"node\":\"mul_1\"}]]", "\"args\":[{\"node\":\"mul\"}]")
                                         << "the output node's args must be [[outputs...]]";
    }

    void rejectsBadInput()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, expected);
        try {
            (void)readJointGraphText(text.toStdString(), "tiny.json");
            QFAIL("a bad file was accepted");
        } catch (const Error& e) {
            const QString message = QString::fromUtf8(e.what());
            QVERIFY2(message.startsWith(QLatin1String("tiny.json")), qPrintable(message));
            QVERIFY2(message.contains(expected), qPrintable(QStringLiteral("got: ") + message));
        }
    }

    void missingFileIsAnError()
    {
        QVERIFY_THROWS_EXCEPTION(Error, readJointGraphFile("/nonexistent/graph.json"));
    }

    void readsEveryOracleGraph()
    {
        const JointGraph g = readJointGraphFile(REMAT_SHARED_DIR "/oracle/gpt_n2.json");
        QCOMPARE(g.size(), std::size_t(410));
        QVERIFY(g.recordedPartition("min_cut_inductor"));
        QVERIFY(g.recordedPartition("min_cut")->cutValue.has_value());
    }
};

QTEST_GUILESS_MAIN(TestJointGraphReader)
#include "tst_jointgraphreader.moc"
