// SPDX-License-Identifier: MIT
// A large graph file read and parsed in two on two cores reads exactly as when parsed whole, and
// a file that cannot be split safely comes back whole, for the whole parse to read or explain.
#include "graph/error.h"
#include "io/graph_loader.h"
#include "io/joint_graph_reader.h"
#ifndef Q_MOC_RUN // moc loses its way in simdjson.h and finds no test class
#include "io/split_json_parse.h"
#endif

#include <QTemporaryDir>
#include <QTest>

#include <fstream>

#include <string>

using namespace remat;

namespace {

std::string node(const std::string& name, const std::string& op, const std::string& target,
    const std::string& args, const std::string& extra = {})
{
    return R"({"name":")" + name + R"(","op":")" + op + R"(","target":")" + target + R"(","args":)" + args
        + R"(,"kwargs":{},"val":{"shape":[4,)" + std::to_string(name.size())
        + R"(],"dtype":"float32","device":"cpu"},)" + extra + R"("meta":{"partitioner_tag":"is_forward"}})";
}

std::string nodeRef(const std::string& name)
{
    return R"({"node":")" + name + R"("})";
}

/// A joint graph of a chain of `count` cos nodes, large enough (count >= 6000) to be split, with
/// PyTorch's recorded decision after the nodes. `middle` goes in as the node list's middle entry.
std::string chainGraph(int count, const std::string& middle = {})
{
    std::string nodes = node("primals_1", "placeholder", "primals_1", "[]") + ","
        + node("tangents_1", "placeholder", "tangents_1", "[]");
    std::string previous = "primals_1";
    for (int i = 0; i < count; ++i) {
        const std::string name = "cos_" + std::to_string(i);
        nodes += "," + node(name, "call_function", "aten.cos.default", "[" + nodeRef(previous) + "]");
        previous = name;
        if (i == count / 2 && !middle.empty())
            nodes += "," + middle;
    }
    nodes += "," + node("output", "output", "output", "[[" + nodeRef(previous) + "]]");
    return R"({"format":"joint-graph","version":1,"num_fwd_outputs":1,"nodes":[)" + nodes
        + R"(],"reference":{"torch_version":"1.13.0a0","min_cut":{"saved_values":["cos_7"],"seconds":0.5}},)"
        + R"("extra":{"min_cut_details":{"cut_value":1024}}})";
}

/// Whichever way it fails, the message of the file read in two, or of its text read whole.
std::string messageOf(const std::string& path, const std::string* wholeText = nullptr)
{
    try {
        if (wholeText)
            (void)readJointGraphText(std::string_view(*wholeText), path);
        else
            (void)loadGraphFile(path);
    } catch (const Error& e) {
        return e.what();
    }
    return "(read without an error)";
}

/// `text` with the first `from` inside node `name` replaced by `to`.
std::string changeNode(
    std::string text, const std::string& name, const std::string& from, const std::string& to)
{
    const auto node = text.find(R"({"name":")" + name + "\"");
    const auto at = text.find(from, node);
    if (node == std::string::npos || at == std::string::npos)
        return {};
    return text.replace(at, from.size(), to);
}

std::string writeFile(const QTemporaryDir& dir, const std::string& text)
{
    const std::string path = dir.filePath("big.json").toStdString();
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

} // namespace

class TestSplitJsonParse : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void aLargeGraphIsSplitNearItsMiddle()
    {
        const std::string text = chainGraph(6000);
        QVERIFY(text.size() > kSplitParseBytes);
        const FileInTwo file = readFileInTwo(writeFile(m_dir, text));
        QVERIFY(file.documents);
        QVERIFY(file.text.empty());
        const auto head = simdjson::dom::object(file.documents->head.root());
        const auto tail = simdjson::dom::object(file.documents->tail.root());
        const std::size_t headNodes = simdjson::dom::array(head["nodes"].value_unsafe()).size();
        const std::size_t tailNodes = simdjson::dom::array(tail["nodes"].value_unsafe()).size();
        QCOMPARE(headNodes + tailNodes, std::size_t(6003));
        QVERIFY2(headNodes > 2700 && headNodes < 3600, qPrintable(QString::number(headNodes)));
        QVERIFY(!tail["reference"].error());
        QVERIFY(head["reference"].error());
    }

    void readsWhatTheWholeParseReads()
    {
        const std::string text = chainGraph(6000);
        const JointGraph whole = readJointGraphText(std::string_view(text), "big.json");
        const JointGraph split = loadGraphFile(writeFile(m_dir, text));
        QCOMPARE(split.size(), whole.size());
        for (NodeId id = 0; id < static_cast<NodeId>(whole.size()); ++id) {
            QCOMPARE(split.node(id).name, whole.node(id).name);
            QCOMPARE(split.node(id).inputs, whole.node(id).inputs);
            QCOMPARE(split.node(id).users, whole.node(id).users);
            QCOMPARE(split.opOf(id).packet, whole.opOf(id).packet);
            QCOMPARE(split.node(id).meta.partitionerTag, whole.node(id).meta.partitionerTag);
            if (whole.node(id).hasTensorMeta())
                QCOMPARE(split.node(id).tensor().bytes(), whole.node(id).tensor().bytes());
        }
        QCOMPARE(split.outputs(), whole.outputs());
        QCOMPARE(split.numFwdOutputs(), 1);
        const RecordedPartition* recorded = split.recordedPartition("min_cut");
        QVERIFY(recorded);
        QCOMPARE(recorded->savedValues, std::vector<std::string> {"cos_7"});
        QCOMPARE(recorded->cutValue.value_or(-1), 1024);
        QCOMPARE(split.recordedTorchVersion(), std::string("1.13.0a0"));
    }

    void aLookAlikeInsideANodeIsNotASplitPoint()
    {
        // Past the split's starting point, the first "},{"name"" is inside a node's list: the
        // head would close that list, not the nodes, and must not parse.
        const std::string filler(400000, 'x');
        // (Plain literals: moc misreads raw ones that end in a quote.)
        const std::string decoy
            = "{\"name\":\"decoy\",\"op\":\"call_function\",\"target\":\"aten.cos.default\","
              "\"note\":\""
            + filler + "\",\"args\":[{\"a\":1},{\"name\":\"z\"}],\"kwargs\":{},\"val\":null,\"meta\":{}}";
        const std::string text = chainGraph(6000, decoy);
        const FileInTwo file = readFileInTwo(writeFile(m_dir, text));
        QVERIFY(!file.documents);
        QVERIFY(file.text == text); // joined from the two reads
        QVERIFY(file.text.capacity() >= text.size() + simdjson::SIMDJSON_PADDING);
    }

    void aSyntaxErrorLeavesTheTextForTheWholeParse()
    {
        std::string bad = chainGraph(6000);
        const auto at = bad.rfind(R"("name":"cos_5990")");
        QVERIFY(at != std::string::npos);
        bad.replace(at, 7, R"("name" )"); // a missing colon, in the tail
        const std::string path = writeFile(m_dir, bad);
        const FileInTwo file = readFileInTwo(path);
        QVERIFY(!file.documents);
        QVERIFY(file.text == bad);
        const std::string split = messageOf(path);
        QCOMPARE(split, messageOf(path, &bad));
        QVERIFY2(split.starts_with(path + ":1:") && split.find("Missing a colon") != std::string::npos,
            split.c_str());
    }

    void aLaterNodeIsNamedAsSuchAcrossTheSplit()
    {
        // Both halves declare names: a head node that uses a tail node is out of order, not unknown.
        std::string text = chainGraph(6000);
        const auto at = text.find(R"({"node":"cos_10"})");
        QVERIFY(at != std::string::npos);
        text.replace(at, 17, R"({"node":"cos_5000"})");
        std::string path = writeFile(m_dir, text);
        QVERIFY(readFileInTwo(path).documents);
        const std::string split = messageOf(path);
        QCOMPARE(split, messageOf(path, &text));
        QVERIFY2(split.find("does not come before it") != std::string::npos, split.c_str());

        text.replace(text.find(R"({"node":"cos_5000"})"), 19, R"({"node":"nowhere"})");
        path = writeFile(m_dir, text);
        QVERIFY2(
            messageOf(path).find("unknown node 'nowhere'") != std::string::npos, messageOf(path).c_str());
    }

    void aBrokenNodeGetsTheOnePassMessage_data()
    {
        // cos_5990 and cos_5995 lie in the tail (parsed on the other core), cos_20 in the head:
        // wherever the broken node is, the message is the one a one-pass read gives, for the first.
        QTest::addColumn<QString>("change");
        const std::string text = chainGraph(6000);
        const auto add = [&](const char* name, const std::string& changed) {
            QTest::addRow("%s", name) << QString::fromStdString(changed);
        };
        add("negative size", changeNode(text, "cos_5990", R"("shape":[4,)", R"("shape":[-4,)"));
        add("unknown dtype", changeNode(text, "cos_5990", "float32", "float99"));
        add("unknown op", changeNode(text, "cos_5990", R"("call_function")", R"("call_fun")"));
        add("unknown reference", changeNode(text, "cos_5990", R"("cos_5989")", R"("nowhere")"));
        add("a head node's name again", changeNode(text, "cos_5990", "cos_5990", "cos_10"));
        add("args before the name",
            changeNode(text, "cos_5990",
                R"({"name":"cos_5990","op":"call_function","target":"aten.cos.default","args":[{"node":"cos_5989"}])",
                R"({"args":[{"node":"nowhere"}],"name":"cos_5990","op":"call_function","target":"aten.cos.default")"));
        add("a bad reference before a bad size",
            changeNode(changeNode(text, "cos_5995", R"("shape":[4,)", R"("shape":[-4,)"), "cos_5990",
                R"("cos_5989")", R"("nowhere")"));
        add("a bad size before a bad reference",
            changeNode(changeNode(text, "cos_5995", R"("cos_5994")", R"("nowhere")"), "cos_5990",
                R"("shape":[4,)", R"("shape":[-4,)"));
        add("a broken head node before a broken tail node",
            changeNode(changeNode(text, "cos_5990", R"("cos_5989")", R"("nowhere")"), "cos_20",
                R"("shape":[4,)", R"("shape":[-4,)"));
    }

    void aBrokenNodeGetsTheOnePassMessage()
    {
        QFETCH(QString, change);
        const std::string text = change.toStdString();
        QVERIFY(!text.empty());
        const std::string path = writeFile(m_dir, text);
        QVERIFY(readFileInTwo(path).documents);
        const std::string split = messageOf(path);
        QVERIFY2(split != "(read without an error)", split.c_str());
        QCOMPARE(split, messageOf(path, &text));
    }

    void otherFilesComeBackWhole()
    {
        const std::string small = chainGraph(100);
        QVERIFY(small.size() < kSplitParseBytes);
        FileInTwo file = readFileInTwo(writeFile(m_dir, small));
        QVERIFY(!file.documents);
        QVERIFY(file.text == small);

        // A byte-order mark: not parsed in two, read whole by the loader, which skips it.
        const std::string marked = "\xEF\xBB\xBF" + chainGraph(6000);
        const std::string path = writeFile(m_dir, marked);
        file = readFileInTwo(path);
        QVERIFY(!file.documents);
        QVERIFY(file.text == marked);
        QCOMPARE(loadGraphFile(path).size(), std::size_t(6003));
    }

    void aMissingFileSaysSo()
    {
        const std::string path = m_dir.filePath("nowhere.json").toStdString();
        try {
            (void)readFileInTwo(path);
            QFAIL("no error");
        } catch (const Error& e) {
            QVERIFY2(std::string(e.what()).starts_with(path + ": cannot read:"), e.what());
        }
    }

private:
    QTemporaryDir m_dir;
};

QTEST_GUILESS_MAIN(TestSplitJsonParse)
#include "tst_splitjsonparse.moc"
