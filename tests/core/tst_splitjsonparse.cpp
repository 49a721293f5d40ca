// SPDX-License-Identifier: MIT
// A large graph file read and parsed in parts on two cores reads exactly as when parsed whole, and
// a file that cannot be split safely is read whole, for the whole parse to read or explain.
#include "graph/error.h"
#include "io/graph_loader.h"
#include "io/joint_graph_reader.h"
#ifndef Q_MOC_RUN // moc loses its way in simdjson.h and finds no test class
#include "io/split_json_parse.h"
#endif

#include <QTemporaryDir>
#include <QTest>

#include <fstream>
#include <numeric>

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
std::string chainGraph(int count, const std::string& middle = {}, const std::string& after = {})
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
        + R"("extra":{"min_cut_details":{"cut_value":1024}})" + after + "}";
}

/// Whichever way it fails, the message of the file read in parts, or of its text read whole.
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

    void aLargeGraphIsSplitInParts()
    {
        const std::string text = chainGraph(6000);
        QVERIFY(text.size() > kSplitParseBytes);
        const FileInParts file = readFileInParts(writeFile(m_dir, text));
        QVERIFY(file.documents);
        QVERIFY(file.text.empty());
        const auto nodesOf = [](const simdjson::dom::document& part) {
            return simdjson::dom::array(simdjson::dom::object(part.root())["nodes"].value_unsafe()).size();
        };
        const auto head = simdjson::dom::object(file.documents->head().root());
        std::vector<std::size_t> counts {nodesOf(file.documents->head())};
        for (std::size_t i = 0; counts.size() == 1 || !file.documents->isLast(i - 1); ++i) {
            const simdjson::dom::document* part = file.documents->later(i);
            QVERIFY(part);
            counts.push_back(nodesOf(*part));
            const bool hasReference = !simdjson::dom::object(part->root())["reference"].error();
            QCOMPARE(hasReference, file.documents->isLast(i));
        }
        // The head up to about 35% of the text, then parts up to about 60%, 80% and the end.
        QCOMPARE(counts.size(), std::size_t(4));
        QCOMPARE(std::accumulate(counts.begin(), counts.end(), std::size_t(0)), std::size_t(6003));
        QVERIFY2(counts[0] > 1800 && counts[0] < 2400, qPrintable(QString::number(counts[0])));
        QVERIFY2(counts[3] > 1000 && counts[3] < 1400, qPrintable(QString::number(counts[3])));
        QVERIFY(head["reference"].error());
    }

    void aSplitPointPastTheNodesEndsThePartsThere()
    {
        // A long field after the nodes: the searches at 60% and 80% of the text find no nodes,
        // and the first later part runs to the end.
        const std::string text = chainGraph(6000, {}, ",\"notes\":\"" + std::string(1500000, 'n') + "\"");
        const std::string path = writeFile(m_dir, text);
        const FileInParts file = readFileInParts(path);
        QVERIFY(file.documents);
        QVERIFY(file.documents->later(0));
        QVERIFY(file.documents->isLast(0));
        QVERIFY(!file.documents->later(1));
        QCOMPARE(loadGraphFile(path).size(), std::size_t(6003));
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
        // Past the 60% split's starting point, the first "},{"name"" is inside a node's list: a
        // part ending there would close that list, not the nodes, and does not parse. The part
        // then runs to the end, and the graph reads as when parsed whole.
        const std::string filler(400000, 'x');
        // (Plain literals: moc misreads raw ones that end in a quote.)
        const std::string decoy
            = "{\"name\":\"decoy\",\"op\":\"call_function\",\"target\":\"aten.cos.default\","
              "\"note\":\""
            + filler + "\",\"args\":[{\"a\":1},{\"name\":\"z\"}],\"kwargs\":{},\"val\":null,\"meta\":{}}";
        const std::string text = chainGraph(6000, decoy);
        const std::string path = writeFile(m_dir, text);
        const auto lookAlike = text.find(R"(},{"name":"z")");
        QVERIFY(lookAlike > text.size() * 60 / 100 && lookAlike < text.size() * 60 / 100 + 65536);
        const FileInParts file = readFileInParts(path);
        QVERIFY(file.documents);
        QVERIFY(file.documents->later(0));
        QVERIFY(file.documents->isLast(0));
        const JointGraph whole = readJointGraphText(std::string_view(text), "big.json");
        const JointGraph split = loadGraphFile(path);
        QCOMPARE(split.size(), whole.size());
        QCOMPARE(split.node(split.find("decoy")).inputs, whole.node(whole.find("decoy")).inputs);
    }

    void aSyntaxErrorLeavesTheTextForTheWholeParse()
    {
        std::string bad = chainGraph(6000);
        const auto at = bad.rfind(R"("name":"cos_5990")");
        QVERIFY(at != std::string::npos);
        bad.replace(at, 7, R"("name" )"); // a missing colon, in the last part
        const std::string path = writeFile(m_dir, bad);
        const FileInParts file = readFileInParts(path);
        QVERIFY(file.documents); // the head parses; the part with the error does not
        bool aPartFailed = false;
        for (std::size_t i = 0; !aPartFailed && (i == 0 || !file.documents->isLast(i - 1)); ++i)
            aPartFailed = !file.documents->later(i);
        QVERIFY(aPartFailed);
        const std::string split = messageOf(path);
        QCOMPARE(split, messageOf(path, &bad));
        QVERIFY2(split.starts_with(path + ":1:") && split.find("Missing a colon") != std::string::npos,
            split.c_str());
    }

    void aLaterNodeIsNamedAsSuchAcrossTheSplit()
    {
        // All parts declare names: a head node that uses a later part's node is out of order, not unknown.
        std::string text = chainGraph(6000);
        const auto at = text.find(R"({"node":"cos_10"})");
        QVERIFY(at != std::string::npos);
        text.replace(at, 17, R"({"node":"cos_5000"})");
        std::string path = writeFile(m_dir, text);
        QVERIFY(readFileInParts(path).documents);
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
        // cos_5990 and cos_5995 lie in the last part and cos_3000 in a middle one (parsed on the other
        // core), cos_20 in the head:
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
        add("a broken node in a middle part",
            changeNode(text, "cos_3000", R"("shape":[4,)", R"("shape":[-4,)"));
        add("an unknown reference in a middle part",
            changeNode(text, "cos_3000", R"("cos_2999")", R"("nowhere")"));
        // The whole parse fails first: a broken head node read before the later part's syntax error
        // is parsed does not hide it.
        add("a broken head node and a syntax error later",
            changeNode(changeNode(text, "cos_5990", R"("name":"cos_5990")", R"("name" "cos_5990")"), "cos_20",
                R"("shape":[4,)", R"("shape":[-4,)"));
        add("a broken head node before a broken later one",
            changeNode(changeNode(text, "cos_5990", R"("cos_5989")", R"("nowhere")"), "cos_20",
                R"("shape":[4,)", R"("shape":[-4,)"));
    }

    void aBrokenNodeGetsTheOnePassMessage()
    {
        QFETCH(QString, change);
        const std::string text = change.toStdString();
        QVERIFY(!text.empty());
        const std::string path = writeFile(m_dir, text);
        QVERIFY(readFileInParts(path).documents);
        const std::string split = messageOf(path);
        QVERIFY2(split != "(read without an error)", split.c_str());
        QCOMPARE(split, messageOf(path, &text));
    }

    void otherFilesComeBackWhole()
    {
        const std::string small = chainGraph(100);
        QVERIFY(small.size() < kSplitParseBytes);
        FileInParts file = readFileInParts(writeFile(m_dir, small));
        QVERIFY(!file.documents);
        QVERIFY(file.text == small);

        // A byte-order mark: not parsed in parts, read whole by the loader, which skips it.
        const std::string marked = "\xEF\xBB\xBF" + chainGraph(6000);
        const std::string path = writeFile(m_dir, marked);
        file = readFileInParts(path);
        QVERIFY(!file.documents);
        QVERIFY(file.text == marked);
        QCOMPARE(loadGraphFile(path).size(), std::size_t(6003));
    }

    void aMissingFileSaysSo()
    {
        const std::string path = m_dir.filePath("nowhere.json").toStdString();
        try {
            (void)readFileInParts(path);
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
