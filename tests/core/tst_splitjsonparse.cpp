// SPDX-License-Identifier: MIT
// A large graph file parsed in two on two cores reads exactly as when parsed whole, and a text
// that cannot be split safely is left as it was, for the whole parse to explain.
#include "graph/error.h"
#include "io/joint_graph_reader.h"
#ifndef Q_MOC_RUN // moc loses its way in simdjson.h and finds no test class
#include "io/split_json_parse.h"
#endif

#include <QTest>

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

/// Whichever way it fails, the message of the text read in two and read whole.
std::string messageOf(std::string text, bool whole)
{
    try {
        if (whole)
            (void)readJointGraphText(std::string_view(text), "big.json");
        else
            (void)readJointGraphText(std::move(text), "big.json");
    } catch (const Error& e) {
        return e.what();
    }
    return "(read without an error)";
}

std::string withPadding(const std::string& text)
{
    std::string padded;
    padded.reserve(text.size() + simdjson::SIMDJSON_PADDING);
    padded = text;
    return padded;
}

} // namespace

class TestSplitJsonParse : public QObject {
    Q_OBJECT

private slots:
    void aLargeGraphIsSplitNearItsMiddle()
    {
        std::string text = withPadding(chainGraph(6000));
        QVERIFY(text.size() > kSplitParseBytes);
        const auto parts = parseNodesInTwo(text);
        QVERIFY(parts);
        const auto head = simdjson::dom::object(parts->head.root());
        const auto tail = simdjson::dom::object(parts->tail.root());
        const std::size_t headNodes = simdjson::dom::array(head["nodes"].value_unsafe()).size();
        const std::size_t tailNodes = simdjson::dom::array(tail["nodes"].value_unsafe()).size();
        QCOMPARE(headNodes + tailNodes, std::size_t(6003));
        QVERIFY2(headNodes > 3000 && headNodes < 3600, qPrintable(QString::number(headNodes)));
        QVERIFY(!tail["reference"].error());
        QVERIFY(head["reference"].error());
    }

    void readsWhatTheWholeParseReads()
    {
        const std::string text = chainGraph(6000);
        const JointGraph whole = readJointGraphText(std::string_view(text), "big.json");
        const JointGraph split = readJointGraphText(withPadding(text), "big.json");
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
        std::string text = withPadding(chainGraph(6000, decoy));
        const std::string before = text;
        QVERIFY(!parseNodesInTwo(text));
        QCOMPARE(text, before);
    }

    void aSyntaxErrorLeavesTheTextForTheWholeParse()
    {
        std::string bad = chainGraph(6000);
        const auto at = bad.rfind(R"("name":"cos_5990")");
        QVERIFY(at != std::string::npos);
        bad.replace(at, 7, R"("name" )"); // a missing colon, in the tail
        std::string text = withPadding(bad);
        QVERIFY(!parseNodesInTwo(text));
        QCOMPARE(text, bad);
        const std::string split = messageOf(withPadding(bad), false);
        QCOMPARE(split, messageOf(bad, true));
        QVERIFY2(split.starts_with("big.json:1:") && split.find("Missing a colon") != std::string::npos,
            split.c_str());
    }

    void aLaterNodeIsNamedAsSuchAcrossTheSplit()
    {
        // Both halves declare names: a head node that uses a tail node is out of order, not unknown.
        std::string text = chainGraph(6000);
        const auto at = text.find(R"({"node":"cos_10"})");
        QVERIFY(at != std::string::npos);
        text.replace(at, 17, R"({"node":"cos_5000"})");
        const std::string split = messageOf(withPadding(text), false);
        QCOMPARE(split, messageOf(text, true));
        QVERIFY2(split.find("does not come before it") != std::string::npos, split.c_str());

        text.replace(text.find(R"({"node":"cos_5000"})"), 19, R"({"node":"nowhere"})");
        QVERIFY2(messageOf(withPadding(text), false).find("unknown node 'nowhere'") != std::string::npos,
            messageOf(withPadding(text), false).c_str());
    }

    void smallTextsAreParsedWhole()
    {
        std::string text = withPadding(chainGraph(100));
        QVERIFY(text.size() < kSplitParseBytes);
        QVERIFY(!parseNodesInTwo(text));
    }
};

QTEST_GUILESS_MAIN(TestSplitJsonParse)
#include "tst_splitjsonparse.moc"
