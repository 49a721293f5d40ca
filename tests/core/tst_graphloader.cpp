// SPDX-License-Identifier: MIT
#include "graph/error.h"
#include "io/compiled_graph_listing.h"
#include "io/file_text.h"
#include "io/graph_loader.h"
#include "io/joint_graph_reader.h"
#include "io/printed_graph_reader.h"

#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

using namespace remat;

namespace {

std::string dataFile(const char* name)
{
    return std::string(REMAT_TEST_DATA_DIR "/printed/") + name;
}

QString loadError(const std::string& path)
{
    try {
        loadGraphFile(path);
    } catch (const Error& e) {
        return QString::fromUtf8(e.what());
    }
    return QStringLiteral("(no error)");
}

} // namespace

class TestGraphLoader : public QObject {
    Q_OBJECT

private slots:
    void sniffsContent_data();
    void sniffsContent();
    void jsonAndPrintedGiveTheSameGraph();
    void oracleGraph();
    void errorsComeFromTheRightReader_data();
    void errorsComeFromTheRightReader();
    void listsTheCompiledGraphsToChooseFrom();
};

void TestGraphLoader::sniffsContent_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("json");
    QTest::addRow("object") << "{\"format\": \"joint-graph\"}" << true;
    QTest::addRow("leading blank lines") << " \n\t\r\n{}" << true;
    QTest::addRow("byte order mark") << QStringLiteral("\uFEFF{}") << true;
    QTest::addRow("print_readable") << "class GraphModule(torch.nn.Module):\n" << false;
    QTest::addRow("log") << "I0614 10:22:13.456000 1 x.py:2] TRACED GRAPH\n" << false;
    QTest::addRow("list") << "[1, 2]" << true; // the JSON reader then says it is not an object
    QTest::addRow("empty list") << "[ ]" << true;
    QTest::addRow("list of objects") << "[\n  {\"a\": 1}]" << true;
    QTest::addRow("list of strings") << "[\"x\"]" << true;
    QTest::addRow("list of literals") << "[true, null]" << true;
    QTest::addRow("negative number") << "[-1.5e3]" << true;
    QTest::addRow("truncated list") << "[" << true;
    QTest::addRow("plus sign, not JSON") << "[+1]" << false; // no character before the sign to read
    // stderr captured with TORCH_LOGS: a '[' that starts a log line, not a JSON list.
    QTest::addRow("library warning") << "[transformers] `use_cache=True` is incompatible\n" << false;
    QTest::addRow("glog line") << "[W1127 23:21:13.5 init.cpp:9] Warning\n" << false;
    QTest::addRow("rank prefix") << "[rank0]: I1127 23:21:13.5 1 x.py:2] TRACED GRAPH\n" << false;
    QTest::addRow("torch 2.1 log line") << "[2023-10-12 11:04:05,419] [0/0] torch._functorch: TRACED GRAPH\n"
                                        << false;
    QTest::addRow("true-like word") << "[trueish] x\n" << false;
    QTest::addRow("empty") << "" << false;
}

void TestGraphLoader::sniffsContent()
{
    QFETCH(QString, text);
    QFETCH(bool, json);
    QCOMPARE(looksLikeJson(text.toStdString()), json);
}

void TestGraphLoader::jsonAndPrintedGiveTheSameGraph()
{
    const JointGraph fromJson = loadGraphFile(dataFile("gelu_layernorm.json"));
    const JointGraph fromText = loadGraphFile(dataFile("gelu_layernorm.emulated2x.txt"));
    QCOMPARE(fromJson.size(), fromText.size());
    QCOMPARE(fromJson.numFwdOutputs(), fromText.numFwdOutputs());
    QCOMPARE(fromJson.outputs(), fromText.outputs());
    for (std::size_t i = 0; i < fromJson.size(); ++i) {
        QCOMPARE(fromJson.nodes()[i].name, fromText.nodes()[i].name);
        QCOMPARE(fromJson.nodes()[i].inputs, fromText.nodes()[i].inputs);
    }
    QCOMPARE(
        QString::fromStdString(fromJson.source().producer).startsWith(QStringLiteral("torch 1.13")), true);
    QCOMPARE(QString::fromStdString(fromText.source().producer),
        QStringLiteral("printed FX graph (print_readable)"));

    // The sniffing looks at the content, not at the file name; and text in memory works the same way.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string misnamed = (dir.path() + QStringLiteral("/graph.json")).toStdString();
    writeFileAtomically(misnamed, readFileText(dataFile("mlp_relu.torch113.txt")));
    QCOMPARE(loadGraphFile(misnamed).size(), std::size_t(31));
    const std::string bom = (dir.path() + QStringLiteral("/bom.txt")).toStdString();
    writeFileAtomically(bom, "\xEF\xBB\xBF" + readFileText(dataFile("mlp_relu.json")));
    QCOMPARE(loadGraphFile(bom).size(), std::size_t(31));
    QCOMPARE(loadGraphText("\xEF\xBB\xBF" + readFileText(dataFile("mlp_relu.json")), "m.json").size(),
        std::size_t(31));
    QCOMPARE(loadGraphText(readFileText(dataFile("mlp_relu.torch113.txt")), "m.txt").size(), std::size_t(31));
}

void TestGraphLoader::oracleGraph()
{
    const std::string path = REMAT_SHARED_DIR "/oracle/mlp3_relu.json";
    QVERIFY2(QFileInfo::exists(QString::fromStdString(path)),
        "the shared folder must be beside the checkout (REMAT_SHARED_DIR): " REMAT_SHARED_DIR);
    const JointGraph g = loadGraphFile(path);
    QCOMPARE(g.size(), std::size_t(49));
    QVERIFY(g.recordedPartition("min_cut"));
}

void TestGraphLoader::errorsComeFromTheRightReader_data()
{
    QTest::addColumn<QString>("contents");
    QTest::addColumn<QString>("message");
    QTest::addRow("broken JSON") << "{\"format\": "
                                 << "malformed JSON";
    QTest::addRow("other JSON") << "{\"format\": \"other\"}"
                                << "\"format\" must be \"joint-graph\"";
    QTest::addRow("broken text") << "class M(torch.nn.Module):\n    def forward(self, x):\n        y = (x\n"
                                 << ":3: unbalanced brackets";
    QTest::addRow("neither") << "hello"
                             << "no printed FX graph found";
}

void TestGraphLoader::errorsComeFromTheRightReader()
{
    QFETCH(QString, contents);
    QFETCH(QString, message);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string path = (dir.path() + QStringLiteral("/g.txt")).toStdString();
    writeFileAtomically(path, contents.toStdString());
    const QString error = loadError(path);
    QVERIFY2(error.startsWith(QString::fromStdString(path)), qPrintable(error));
    QVERIFY2(error.contains(message), qPrintable(error));
    QVERIFY(loadError(path + ".missing").contains(QStringLiteral("cannot read")));
}

QTEST_GUILESS_MAIN(TestGraphLoader)
// What `info` lists and the app's chooser offers: a TORCH_LOGS capture of several compilations
// like a TORCH_TRACE log; a capture with one joint graph and a JSON file open as they are.
void TestGraphLoader::listsTheCompiledGraphsToChooseFrom()
{
    const auto capture = listCompiledGraphs(dataFile("torch_logs/graph_break.log"));
    QVERIFY(capture.has_value());
    QCOMPARE(QString::fromStdString(capture->format), QStringLiteral("TORCH_LOGS capture"));
    QCOMPARE(capture->graphs.size(), std::size_t(2));
    QCOMPARE(QString::fromStdString(capture->graphs[0].id), QStringLiteral("0/0_1"));
    QCOMPARE(capture->graphs[0].nodes, 17);
    QCOMPARE(QString::fromStdString(capture->graphs[1].id), QStringLiteral("1/0"));
    QCOMPARE(capture->graphs[1].nodes, 21);
    for (const auto& g : capture->graphs) {
        QVERIFY(g.joint);
        QVERIFY(g.partitioned); // its Forward and Backward graphs, beside their fw_metadata
        QVERIFY(g.problem.empty());
    }

    // A recompile under dynamic shapes: its sizes name symbols the capture gives no values for.
    const auto recompile = listCompiledGraphs(dataFile("torch_logs/recompile.log"));
    QVERIFY(recompile.has_value());
    QCOMPARE(recompile->graphs.size(), std::size_t(2));
    QCOMPARE(recompile->graphs[0].nodes, 27);
    QVERIFY2(recompile->graphs[1].problem.find("symbolic size 's33'") != std::string::npos
            && recompile->graphs[1].problem.find("open the run's TORCH_TRACE log") != std::string::npos,
        recompile->graphs[1].problem.c_str());

    QVERIFY(!listCompiledGraphs(dataFile("handwritten/aot_graphs.torch_logs.log")));
    QVERIFY(!listCompiledGraphs(std::string(REMAT_SHARED_DIR "/oracle/mlp3_relu.json")));
    const auto trace = listCompiledGraphs(REMAT_TEST_DATA_DIR "/torch_trace/sac.log");
    QVERIFY(trace.has_value());
    QCOMPARE(QString::fromStdString(trace->format), QStringLiteral("TORCH_TRACE log"));
}

#include "tst_graphloader.moc"
