// SPDX-License-Identifier: MIT
// TORCH_TRACE logs as PyTorch 2.14 wrote them (tests/data/torch_trace/make_logs.py): the compiled
// graphs they list, one loaded by compile id, and PyTorch's decision taken from the same log.
#include "analysis/recording_rules.h"
#include "explain/recorded_comparison.h"
#include "explain/recorded_plan.h"
#include "explain/unnamed_provenance.h"
#include "graph/error.h"
#include "io/file_text.h"
#include "io/graph_loader.h"
#include "io/printed_source.h"
#include "io/torch_logs_capture.h"
#include "io/torch_trace.h"
#include "io/traced_input_names.h"
#include "partition/partitioner.h"
#include "partition/rng_states.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>

using namespace remat;

namespace {

std::string logFile(const char* name)
{
    return std::string(REMAT_TEST_DATA_DIR "/torch_trace/") + name;
}

QString joined(std::vector<std::string> names, bool sorted = false)
{
    if (sorted)
        std::sort(names.begin(), names.end());
    QStringList out;
    for (const auto& n : names)
        out << QString::fromStdString(n);
    return out.join(QLatin1Char(' '));
}

/// The backward graph's inputs that are not tangents, read from the log's text with plain string
/// search, independently of the reader under test: 2.14 prints them one per line in the signature.
std::vector<std::string> backwardInputsByText(const std::string& path, const std::string& frame, int attempt)
{
    const std::string text = readFileText(path);
    const std::string marker = "{\"aot_backward_graph\": {}, \"frame_id\": " + frame
        + ", \"frame_compile_id\": 0, \"attempt\": " + std::to_string(attempt) + ",";
    auto pos = text.find(marker);
    if (pos == std::string::npos)
        return {};
    pos = text.find("def forward(\n", pos);
    const auto end = text.find("\n\t    ):", pos);
    std::vector<std::string> names;
    for (auto line = text.find('\n', pos) + 1; line < end; line = text.find('\n', line) + 1) {
        const std::string row = text.substr(line, text.find('\n', line) - line);
        const auto colon = row.find(':');
        if (colon == std::string::npos)
            continue; // "self,"
        const auto begin = row.find_first_not_of("\t ");
        const std::string name = row.substr(begin, colon - begin);
        if (name.find("tangents") == std::string::npos)
            names.push_back(name);
    }
    return names;
}

QString errorOf(const std::function<void()>& f)
{
    try {
        f();
    } catch (const Error& e) {
        return QString::fromUtf8(e.what());
    }
    return QStringLiteral("(no error)");
}

void writeText(const std::string& path, const std::string& text)
{
    std::ofstream(path, std::ios::binary) << text;
}

/// The log's text with its first occurrence of `from` replaced by `to`.
std::string edited(const std::string& file, const std::string& from, const std::string& to)
{
    std::string text = readFileText(logFile(file.c_str()));
    const auto pos = text.find(from);
    if (pos == std::string::npos)
        qFatal("%s does not contain '%s'", file.c_str(), from.c_str());
    return text.replace(pos, from.size(), to);
}

int lineOf(const std::string& text, const std::string& needle)
{
    const auto pos = text.find(needle);
    return 1
        + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(pos), '\n'));
}

} // namespace

class TestTorchTrace : public QObject {
    Q_OBJECT

private slots:
    void captureOpensAsALogDoes();
    void anInductorCaptureIsToldItsBackend();
    void listsCompiledGraphs_data();
    void listsCompiledGraphs();
    void loadsByIdWithPyTorchsDecision_data();
    void loadsByIdWithPyTorchsDecision();
    void decisionMatchesOurPartitioner_data();
    void decisionMatchesOurPartitioner();
    void minCutInformation();
    void defaultPartitionSavesWhereEachNodeWasTraced();
    void dynamicShapesTakeTheLogsExampleValues();
    void aGraphRewrittenAfterLoggingOpensWithoutTheDecision();
    void aPlaceholderWhoseSymbolWasReplacedIsExplained();
    void inductorsPassesAreRecorded();
    void inputsAreNamedAsInTheModel();
    void sourcesReadAsModelNames();
    void aLogCutAfterDynamosGraphOpensWhatItHolds();
    void recomputedRandomOpsSaveRngStates();
    void idWithoutAttempt();
    void defaultGraphIsTheOnlyJointGraph();
    void folderOfLogs();
    void badIdsAndDamagedLogs_data();
    void badIdsAndDamagedLogs();

private:
    QTemporaryDir m_dir;
};

void TestTorchTrace::listsCompiledGraphs_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("listing");
    // id:nodes:decision; the graph break restarts frame 0's analysis, so its graph is attempt 1.
    QTest::addRow("graph break") << "graph_break.log"
                                 << "0/0_1:17:yes 1/0:21:yes";
    QTest::addRow("SAC") << "sac.log"
                         << "0/0:39:yes";
    QTest::addRow("budget") << "budget.log"
                            << "0/0:60:yes+mci";
    // The second input shape made Dynamo recompile with dynamic shapes: 0/1 has symbolic sizes.
    QTest::addRow("dynamic") << "dynamic.log"
                             << "0/0:54:yes 0/1:72:yes";
}

void TestTorchTrace::listsCompiledGraphs()
{
    QFETCH(QString, file);
    QFETCH(QString, listing);
    const trace::TraceListing l = trace::listTorchTrace(logFile(qPrintable(file)));
    QCOMPARE(QString::fromStdString(l.torchVersion), QStringLiteral("2.14.1+debian"));
    QStringList rows;
    for (const auto& g : l.graphs) {
        QVERIFY2(g.problem.empty(), g.problem.c_str());
        QVERIFY(g.joint);
        QVERIFY(!g.inference);
        QCOMPARE(g.file, logFile(qPrintable(file)));
        rows << QString::fromStdString(g.id) + ':' + QString::number(g.nodes) + ':'
                + (g.partitioned ? "yes" : "no") + (g.minCutInformation ? "+mci" : "");
        // The listing counts what loading gives.
        QCOMPARE(static_cast<int>(trace::loadTracedGraph(l.path, g.id).size()), g.nodes);
    }
    QCOMPARE(rows.join(' '), listing);
}

void TestTorchTrace::loadsByIdWithPyTorchsDecision_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("id");
    QTest::addColumn<QString>("frame");
    QTest::addColumn<int>("attempt");
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("saved");
    QTest::addColumn<QString>("statics"); // fw_metadata's static_input_indices: the parameters
    // detach_1 is a node of the joint graph's backward half that 2.14 moved to the forward and saved.
    QTest::addRow("break 0/0_1") << "graph_break.log"
                                 << "0/0_1"
                                 << "0" << 1 << "min_cut"
                                 << "primals_3 detach_1"
                                 << "0 1";
    QTest::addRow("break 1/0") << "graph_break.log"
                               << "1/0"
                               << "1" << 0 << "min_cut"
                               << "primals_1 primals_3 detach_1"
                               << "0 1";
    // MUST_SAVE on addmm: both addmm outputs of the checkpointed region are saved.
    QTest::addRow("sac") << "sac.log"
                         << "0/0"
                         << "0" << 0 << "min_cut"
                         << "primals_1 primals_4 addmm addmm_1"
                         << "1 2 3 4";
    QTest::addRow("budget") << "budget.log"
                            << "0/0"
                            << "0" << 0 << "memory_budget_0.3"
                            << "primals_1 primals_4 primals_5 primals_6 primals_7 addmm"
                            << "1 2 3 4 5 6";
    // 18 parameters: 2.14 wraps static_input_indices one index a line (the list failed to read).
    QTest::addRow("blocks")
        << "blocks.log"
        << "0/0"
        << "0" << 0 << "min_cut"
        << "primals_1 primals_2 primals_3 primals_4 primals_6 primals_8 primals_9 primals_10 "
           "primals_11 primals_12 primals_14 primals_15 primals_16 primals_17 primals_18 "
           "primals_19 getitem getitem_1 getitem_2 addmm silu add add_1"
        << "0 1 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18";
}

void TestTorchTrace::loadsByIdWithPyTorchsDecision()
{
    QFETCH(QString, file);
    QFETCH(QString, id);
    QFETCH(QString, frame);
    QFETCH(int, attempt);
    QFETCH(QString, key);
    QFETCH(QString, saved);
    QFETCH(QString, statics);
    const std::string path = logFile(qPrintable(file));
    const JointGraph g = trace::loadTracedGraph(path, id.toStdString());
    QCOMPARE(g.kind(), GraphKind::Joint);
    QCOMPARE(g.filePath(), path);
    QCOMPARE(QString::fromStdString(g.source().model), "compile " + id);
    QCOMPARE(QString::fromStdString(g.recordedTorchVersion()), QStringLiteral("2.14.1+debian"));
    QCOMPARE(g.recorded().size(), std::size_t(1));
    const RecordedPartition* recorded = g.recordedPartition(key.toStdString());
    QVERIFY(recorded);
    QCOMPARE(joined(recorded->savedValues), saved); // joint-graph order
    QVERIFY(recorded->savedSymNodes.empty());
    // The same names as the log's backward graph takes, read with plain string search.
    QCOMPARE(joined(recorded->savedValues, true),
        joined(backwardInputsByText(path, frame.toStdString(), attempt), true));
    for (const auto& name : recorded->savedValues)
        QVERIFY(g.find(name) != kNoNode);
    QStringList indices;
    for (int i : g.staticLifetimeInputIndices())
        indices << QString::number(i);
    QCOMPARE(indices.join(' '), statics);
}

void TestTorchTrace::decisionMatchesOurPartitioner_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("id");
    QTest::addRow("break 0/0_1") << "graph_break.log"
                                 << "0/0_1";
    QTest::addRow("break 1/0") << "graph_break.log"
                               << "1/0";
    QTest::addRow("sac") << "sac.log"
                         << "0/0";
    QTest::addRow("blocks") << "blocks.log"
                            << "0/0";
    QTest::addRow("dynamic 0/0, static") << "dynamic.log"
                                         << "0/0";
    QTest::addRow("dynamic 0/1, dynamic shapes") << "dynamic.log"
                                                 << "0/1";
    // The dropout outside every region is dead in the backward; inside torch.compile DCE drops it,
    // so the backward does not pull in the bias (primals_7) its input needs: 13 saved, not 14.
    QTest::addRow("rng") << "rng.log"
                         << "0/0";
    // The running statistics' copy_ nodes at the end are input mutations that stay in the forward.
    QTest::addRow("batchnorm") << "batchnorm.log"
                               << "0/0";
}

// Our min-cut under 2.14's rules reaches the decision 2.14 logged (the CLI's comparison). In 1/0
// that needs the static inputs: 2.14 saves the parameter primals_1 for free rather than t_1, a
// transposed view of it of the same size.
void TestTorchTrace::decisionMatchesOurPartitioner()
{
    QFETCH(QString, file);
    QFETCH(QString, id);
    const JointGraph g = trace::loadTracedGraph(logFile(qPrintable(file)), id.toStdString());
    PartitionOptions options;
    options.rules = RuleSet::Torch214;
    const auto plan = findRecordedPlan(g, options);
    QVERIFY(plan);
    QCOMPARE(QString::fromStdString(plan->key), QStringLiteral("min_cut"));
    const PartitionResult ours = partitionGraph(g, options);
    std::vector<std::string> names;
    for (NodeId n : ours.savedValues)
        names.push_back(g.node(n).name);
    QCOMPARE(joined(names, true), joined(plan->recorded->savedValues, true));
    // SymInts go to the backward in 2.14's order: the symbols' bindings, then derived values.
    names.clear();
    for (NodeId n : ours.savedSymNodes)
        names.push_back(g.node(n).name);
    QCOMPARE(joined(names), joined(plan->recorded->savedSymNodes));
    // Under 1.13's rules there is nothing to compare with, and the message says why.
    options.rules = RuleSet::Torch113;
    QVERIFY(!findRecordedPlan(g, options));
    QVERIFY(
        missingRecordedPlanMessage(g, options).find("torch-2.14 rules, not torch-1.13") != std::string::npos);
}

// default_partition.log was partitioned by 2.14's default_partition (the log files it under
// min_cut: it does not name the partitioner). That partition saves by where each node was traced,
// a tag the printed graph leaves out: the reader infers it from the tangents and the "Backward of
// forward node" marks, so our default partition saves the same 23 values. Without the tags every
// node counted as backward, and it saved the 19 graph inputs the backward reads.
void TestTorchTrace::defaultPartitionSavesWhereEachNodeWasTraced()
{
    const JointGraph g = trace::loadTracedGraph(logFile("default_partition.log"), "0/0");
    const RecordedPartition* recorded = g.recordedPartition("min_cut");
    QVERIFY(recorded);
    QCOMPARE(recorded->savedValues.size(), std::size_t(23));
    PartitionOptions options;
    options.rules = RuleSet::Torch214;
    options.partitioner = PartitionerKind::Default;
    const PartitionResult ours = partitionGraph(g, options);
    std::vector<std::string> names;
    for (NodeId n : ours.savedValues)
        names.push_back(g.node(n).name);
    QCOMPARE(joined(names, true), joined(recorded->savedValues, true));
    QVERIFY(ours.savedSymNodes.empty() && recorded->savedSymNodes.empty());

    // The log does not name its partitioner: its one decision is compared with either, and a
    // min-cut that differs is told which partitioner saves PyTorch's set.
    QVERIFY(!recorded->partitionerNamed);
    const auto asDefault = compareWithRecorded(g, ours);
    QVERIFY(asDefault && asDefault->identical());
    QCOMPARE(asDefault->plan.key, std::string("min_cut"));
    QVERIFY(unnamedProvenanceNote(g, ours, *asDefault).text.empty());
    options.partitioner = PartitionerKind::MinCut;
    const PartitionResult minCut = partitionGraph(g, options);
    const auto asMinCut = compareWithRecorded(g, minCut);
    QVERIFY(asMinCut && !asMinCut->identical());
    const ProvenanceNote minCutNote = unnamedProvenanceNote(g, minCut, *asMinCut);
    QCOMPARE(minCutNote.remedy, ProvenanceRemedy::OtherPartitioner);
    const std::string& note = minCutNote.text;
    QVERIFY2(
        note.find("our default partitioner saves exactly PyTorch's 23 values: the backend partitioned with "
                  "default_partition")
            != std::string::npos,
        note.c_str());
    // Min-cut logs: aot_eager's is unnamed too (the default partitioner is told min-cut saves its
    // set); Inductor's and budgets' are named.
    const JointGraph eager = trace::loadTracedGraph(logFile("blocks.log"), "0/0");
    QVERIFY(!eager.recordedPartition("min_cut")->partitionerNamed);
    options.partitioner = PartitionerKind::Default;
    const PartitionResult eagerDefault = partitionGraph(eager, options);
    const auto eagerComparison = compareWithRecorded(eager, eagerDefault);
    QVERIFY(eagerComparison && !eagerComparison->identical());
    const std::string eagerNote = unnamedProvenanceNote(eager, eagerDefault, *eagerComparison).text;
    QVERIFY2(eagerNote.find("our min-cut saves exactly PyTorch's") != std::string::npos, eagerNote.c_str());
    QVERIFY(trace::loadTracedGraph(logFile("budget.log"), "0/0")
                .recordedPartition("memory_budget_0.3")
                ->partitionerNamed);
    // Inductor partitions with min-cut: its decision does not stand in for the default partitioner's.
    const JointGraph inductor = trace::loadTracedGraph(logFile("inductor.log"), "0/0");
    QVERIFY(inductor.recordedPartition("min_cut")->partitionerNamed);
    QVERIFY(!findRecordedPlan(inductor, options));

    const auto tagOf = [&](const char* name) { return g.node(g.find(name)).meta.partitionerTag; };
    QCOMPARE(tagOf("primals_1"), PartitionerTag::IsForward);
    QCOMPARE(tagOf("tangents_1"), PartitionerTag::IsBackward);
    QCOMPARE(tagOf("mean"), PartitionerTag::IsForward); // the loss: the forward's last node
    QCOMPARE(tagOf("expand"), PartitionerTag::IsBackward); // the first to read a tangent
    QCOMPARE(tagOf("pow_2"), PartitionerTag::IsBackward); // marked, reads no tangent
    QCOMPARE(tagOf("t_6"), PartitionerTag::IsBackward);
}

// Under dynamic shapes 2.14 sizes values with the symbols' example values (optimization_hint); the
// log's create_symbol records give them: s77 = 3 (the batch), s53 = 13 (the length).
void TestTorchTrace::dynamicShapesTakeTheLogsExampleValues()
{
    const JointGraph g = trace::loadTracedGraph(logFile("dynamic.log"), "0/1");
    const auto shapeOf = [&](const char* name) {
        const NodeId n = g.find(name);
        return n == kNoNode ? std::vector<std::int64_t> {} : g.node(n).tensor().shape;
    };
    const auto strideOf = [&](const char* name) { return g.node(g.find(name)).tensor().stride; };
    QCOMPARE(shapeOf("primals_5"), (std::vector<std::int64_t> {3, 4, 13})); // f32[s77, 4, s53]
    QCOMPARE(strideOf("primals_5"), (std::vector<std::int64_t> {52, 13, 1})); // [4*s53, s53, 1]
    // f32[s77, 8, 2*(((s53 - 1)//2)) + 2][16*(((s53 - 1)//2)) + 16, ...]
    QCOMPARE(shapeOf("cat"), (std::vector<std::int64_t> {3, 8, 14}));
    QCOMPARE(strideOf("cat")[0], std::int64_t(112));
    QCOMPARE(shapeOf("view"), (std::vector<std::int64_t> {39, 8})); // s77*(2*(((s53 - 1)//2)) + 1)
    QCOMPARE(g.node(g.find("view")).symbolic->freeSymbols, (std::vector<std::string> {"s53", "s77"}));
    QVERIFY(g.node(g.find("primals_1")).symbolic->freeSymbols.empty());

    // A SymInt input binds its symbol; a sym_size node is a derived value.
    const Node& batch = g.node(g.find("primals_3"));
    QCOMPARE(batch.valueKind, ValueKind::Symbolic);
    QCOMPARE(batch.symbolic->bindsSymbol, std::string("s77"));
    QCOMPARE(batch.symbolic->expr, std::string("s77"));
    const Node& size = g.node(g.find("sym_size_int_7"));
    QCOMPARE(size.valueKind, ValueKind::Symbolic);
    QVERIFY(size.symbolic->bindsSymbol.empty());
    QCOMPARE(size.symbolic->expr, std::string("s77*(2*(((s53 - 1)//2)) + 1)"));
    QCOMPARE(size.symbolic->freeSymbols, (std::vector<std::string> {"s53", "s77"}));
    QVERIFY(!size.symbolicFloat);

    // The graph says what sized it; PyTorch's decision saves SymInts beside the tensors.
    QVERIFY2(g.source().description.find("example values s53 = 13, s77 = 3") != std::string::npos,
        g.source().description.c_str());
    const RecordedPartition* recorded = g.recordedPartition("min_cut");
    QVERIFY(recorded);
    QCOMPARE(joined(recorded->savedSymNodes),
        QStringLiteral("primals_3 primals_4 sym_size_int_1 sym_size_int_2 sym_size_int_4 sym_size_int_6 "
                       "sym_size_int_7"));
    // A plan that does not save a SymInt PyTorch saved is not "identical".
    PartitionOptions options;
    options.rules = RuleSet::Torch214;
    PartitionResult ours = partitionGraph(g, options);
    QVERIFY(compareWithRecorded(g, ours)->identical());
    QCOMPARE(g.node(ours.savedSymNodes.back()).name, std::string("sym_size_int_7"));
    ours.savedSymNodes.pop_back();
    const auto comparison = compareWithRecorded(g, ours);
    QCOMPARE(describeDifferences(g, *comparison), std::string("1 only PyTorch's (sym_size_int_7)"));
    // No placeholder here shares its printed symbol with another: nothing to explain.
    QVERIFY(replacedSymbolNote(g, comparison->onlyOurs, comparison->onlyRecorded).empty());
    QVERIFY(replacedSymbolNote(g, {}, {g.find("primals_3")}).empty());
    // The static compile of the same log names no symbol.
    const JointGraph first = trace::loadTracedGraph(logFile("dynamic.log"), "0/0");
    QVERIFY(first.source().description.find("example values") == std::string::npos);
}

// Hugging Face's causal-LM loss under dynamic=True: the logits' last size (s85) and vocab_size (s8)
// are two SymInt inputs; a guard makes s85 == s8 and the log prints both as Sym(s8). 2.14 binds the
// saved values' symbols from before the replacement too and saves primals_3, which the printed sizes
// do not call for: the difference is explained, not left as a bare "differs".
void TestTorchTrace::aPlaceholderWhoseSymbolWasReplacedIsExplained()
{
    const JointGraph g = trace::loadTracedGraph(logFile("replaced_symbol.log"), "0/0");
    QCOMPARE(g.node(g.find("primals_3")).symbolic->bindsSymbol, std::string("s8"));
    QCOMPARE(g.node(g.find("primals_5")).symbolic->bindsSymbol, std::string("s8"));
    PartitionOptions options;
    options.rules = RuleSet::Torch214;
    const PartitionResult ours = partitionGraph(g, options);
    const auto comparison = compareWithRecorded(g, ours);
    QVERIFY(comparison);
    QCOMPARE(describeDifferences(g, *comparison), std::string("1 only PyTorch's (primals_3)"));
    const std::string note = replacedSymbolNote(g, comparison->onlyOurs, comparison->onlyRecorded);
    QVERIFY2(note.starts_with("primals_3 and primals_5 print as Sym(s8): a guard made their symbols equal"),
        note.c_str());
    QVERIFY2(note.find("before it, which the log does not hold") != std::string::npos, note.c_str());
    // Only a differing placeholder is explained.
    QVERIFY(replacedSymbolNote(g, {}, {g.find("primals_1")}).empty());
}

// 2.14 logs the joint graph before tensorify_python_scalars turns SymFloat arithmetic into tensor
// ops, so the backward saves a node the logged joint graph lacks. The graph opened with an error;
// it opens, and PyTorch's decision, which is of another graph, is not compared.
void TestTorchTrace::aGraphRewrittenAfterLoggingOpensWithoutTheDecision()
{
    const JointGraph g = trace::loadTracedGraph(logFile("symfloat.log"), "0/0");
    QCOMPARE(g.size(), std::size_t(41));
    QVERIFY(g.recorded().empty());
    const std::string& why = g.source().unmatchedDecision;
    QVERIFY2(
        why.find(
            ":541: compile 0/0: the backward graph's input 'convert_element_type_default_1' is not a node "
            "of the joint graph")
            != std::string::npos,
        why.c_str());
    QVERIFY2(why.find("tensorify_python_scalars") != std::string::npos, why.c_str());
    QVERIFY(g.source().description.find("PyTorch's decision not compared") != std::string::npos);
    // Every command's "not compared" line gives the reason.
    PartitionOptions options;
    options.rules = RuleSet::Torch214;
    QCOMPARE(missingRecordedPlanMessage(g, options), why);
    // A SymFloat (the float made an input) is sized as 2.14's sym_node_size: 4, not 1.
    const Node& scalar = g.node(g.find("_local_scalar_dense"));
    QCOMPARE(scalar.valueKind, ValueKind::Symbolic);
    QVERIFY(scalar.symbolicFloat);
    QVERIFY(scalar.symbolic->bindsSymbol.empty());
}

void TestTorchTrace::minCutInformation()
{
    const auto info = trace::tracedMinCutInformation(logFile("budget.log"), "0/0");
    QVERIFY(info);
    QCOMPARE(info->memoryBudget, 0.3);
    // The knapsack's min cut also chose primals_2, which 2.14 then dropped: the backward never uses it.
    QCOMPARE(joined(info->savedValues),
        QStringLiteral("primals_1 primals_2 primals_4 primals_5 primals_6 primals_7 addmm"));
    const JointGraph g = trace::loadTracedGraph(logFile("budget.log"), "0/0");
    const RecordedPartition* recorded = g.recordedPartition("memory_budget_0.3");
    QVERIFY(recorded);
    QCOMPARE(recorded->memoryBudget, std::optional<double>(0.3));
    std::vector<std::string> minCut = info->savedValues;
    std::erase(minCut, "primals_2");
    QCOMPARE(joined(minCut, true), joined(recorded->savedValues, true));
    QVERIFY(!trace::tracedMinCutInformation(logFile("sac.log"), "0/0"));
}

// Under Inductor, 2.14 partitions the joint graph after its joint_graph_passes; the log names them
// in chromium_event records, and the decision carries them (the comparison then says why it may differ).
void TestTorchTrace::inductorsPassesAreRecorded()
{
    const JointGraph inductor = trace::loadTracedGraph(logFile("inductor.log"), "0/0");
    const RecordedPartition* recorded = inductor.recordedPartition("min_cut");
    QVERIFY(recorded);
    QCOMPARE(recorded->graphPassesBefore.front(), std::string("remove_noop_ops"));
    QVERIFY(rewrittenGraphNote(*recorded).find("Inductor's joint-graph passes (remove_noop_ops")
        != std::string::npos);
    QVERIFY(trace::listTorchTrace(logFile("inductor.log")).graphs.front().afterInductorPasses);
    // aot_eager runs none.
    const JointGraph eager = trace::loadTracedGraph(logFile("blocks.log"), "0/0");
    QVERIFY(eager.recordedPartition("min_cut")->graphPassesBefore.empty());
    QVERIFY(rewrittenGraphNote(*eager.recordedPartition("min_cut")).empty());
    QVERIFY(!trace::listTorchTrace(logFile("blocks.log")).graphs.front().afterInductorPasses);
}

// Random ops recomputed in checkpoint regions (rng.log): 2.14's functionalize_rng_ops saves one RNG
// state per op, which the backward takes as rng_state_output_<k>. They are counted apart from the
// saved values, and our plan names the same number of ops: the dropouts of the plain regions, not
// the one a policy saves, the one outside any region, or the attention with dropout_p=0.0.
void TestTorchTrace::recomputedRandomOpsSaveRngStates()
{
    const JointGraph g = trace::loadTracedGraph(logFile("rng.log"), "0/0");
    QVERIFY(g.source().partitionedInsideCompile);
    const RecordedPartition* recorded = g.recordedPartition("min_cut");
    QVERIFY(recorded);
    QCOMPARE(recorded->savedRngStates, 2);
    QCOMPARE(recorded->savedValues.size(), std::size_t(13));
    PartitionOptions options;
    options.rules = RuleSet::Torch214;
    const PartitionResult ours = partitionGraph(g, options);
    std::vector<std::string> names;
    for (NodeId n : savedRngStateOps(g, ours))
        names.push_back(g.node(n).name);
    QCOMPARE(joined(names), QStringLiteral("native_dropout native_dropout_1"));
    const auto comparison = compareWithRecorded(g, ours);
    QVERIFY(comparison);
    QVERIFY(comparison->identical());
    QCOMPARE(comparison->ourRngStates, std::size_t(2));

    // Saving the region's dropout (the tag reaches the getitems that unpack it, as a policy's
    // does) leaves one RNG state: the comparison says so.
    options.tags.emplace_back(g.find("native_dropout_1"), CheckpointPolicy::MustSave);
    const PartitionResult tagged = partitionGraph(g, options);
    QCOMPARE(savedRngStateOps(g, tagged), std::vector<NodeId> {g.find("native_dropout")});
    QVERIFY(!compareWithRecorded(g, tagged)); // PyTorch's decision was made without tags
    RecordedComparison differing = *comparison;
    differing.ourRngStates = savedRngStateOps(g, tagged).size();
    QVERIFY(!differing.identical());
    QCOMPARE(QString::fromStdString(describeDifferences(g, differing)),
        QStringLiteral("RNG states: 1 ours, 2 PyTorch's"));
    // The torch 1.13 rules have no RNG functionalization.
    options.rules = RuleSet::Torch113;
    options.tags.clear();
    QVERIFY(savedRngStateOps(g, partitionGraph(g, options)).empty());
}

void TestTorchTrace::idWithoutAttempt()
{
    const JointGraph g = trace::loadTracedGraph(logFile("graph_break.log"), "0/0");
    QCOMPARE(QString::fromStdString(g.source().model), QStringLiteral("compile 0/0_1"));
}

void TestTorchTrace::defaultGraphIsTheOnlyJointGraph()
{
    const JointGraph sac = loadGraphFile(logFile("sac.log"));
    QCOMPARE(QString::fromStdString(sac.source().model), QStringLiteral("compile 0/0"));
    QVERIFY(sac.recordedPartition("min_cut"));
    const JointGraph second = loadGraphFile(logFile("graph_break.log"), "1/0");
    QCOMPARE(second.size(), std::size_t(21));
    QCOMPARE(errorOf([] { loadGraphFile(logFile("graph_break.log")); }),
        QString::fromStdString(logFile("graph_break.log"))
            + ": the log holds 2 joint graphs (0/0_1, 1/0): choose one with a compile id (--graph on the "
              "command line)");
}

void TestTorchTrace::folderOfLogs()
{
    QVERIFY(m_dir.isValid());
    namespace fs = std::filesystem;
    const fs::path one = fs::path(m_dir.path().toStdString()) / "one";
    const fs::path two = fs::path(m_dir.path().toStdString()) / "two";
    fs::create_directories(one);
    fs::create_directories(two);
    fs::copy_file(logFile("sac.log"), one / "dedicated_log_torch_trace_x1y2.log");
    fs::copy_file(logFile("graph_break.log"), two / "dedicated_log_torch_trace_rank_0_ab.log");
    fs::copy_file(logFile("sac.log"), two / "dedicated_log_torch_trace_rank_1_cd.log");
    writeText((two / "notes.txt").string(), "not a log");

    QVERIFY(trace::isTorchTracePath(one.string()));
    const JointGraph single = loadGraphFile(one.string());
    QCOMPARE(QString::fromStdString(single.source().model), QStringLiteral("compile 0/0"));

    const trace::TraceListing l = trace::listTorchTrace(two.string());
    QStringList ids;
    for (const auto& g : l.graphs)
        ids << QString::fromStdString(g.id);
    QCOMPARE(ids.join(' '), QStringLiteral("rank_0_ab:0/0_1 rank_0_ab:1/0 rank_1_cd:0/0"));
    const JointGraph rank1 = loadGraphFile(two.string(), "rank_1_cd:0/0");
    QCOMPARE(rank1.size(), std::size_t(39));
    QCOMPARE(rank1.filePath(), (two / "dedicated_log_torch_trace_rank_1_cd.log").string());
    QCOMPARE(errorOf([&] { loadGraphFile(two.string(), "0/0"); }),
        QString::fromStdString(two.string())
            + ": no compiled graph 0/0 (the log has: rank_0_ab:0/0_1, rank_0_ab:1/0, rank_1_cd:0/0)");

    QVERIFY(!trace::isTorchTracePath(m_dir.path().toStdString()));
    QCOMPARE(errorOf([&] { trace::listTorchTrace(m_dir.path().toStdString()); }),
        m_dir.path() + ": the folder holds no TORCH_TRACE log (dedicated_log_torch_trace_*.log)");
}

void TestTorchTrace::badIdsAndDamagedLogs_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("id");
    QTest::addColumn<QString>("message"); // after "<file>"
    // The log's forward and backward graphs do not fit its joint graph: the graph opens, and the
    // message says why PyTorch's decision is not compared (they failed to open).
    QTest::addColumn<bool>("opens");

    const std::string breakLog = readFileText(logFile("graph_break.log"));
    QTest::addRow("unknown id") << "unknown.log" << QByteArray::fromStdString(breakLog) << "2/0"
                                << ": no compiled graph 2/0 (the log has: 0/0_1, 1/0)" << false;
    QTest::addRow("not an id") << "unknown.log" << QByteArray::fromStdString(breakLog) << "zero"
                               << ": no compiled graph zero (the log has: 0/0_1, 1/0)" << false;

    // Cut inside frame 1's joint graph: its return statement is gone.
    const std::string cut
        = breakLog.substr(0, breakLog.find("\t        return pytree.tree_unflatten([\n\t            sum_1"));
    QTest::addRow("cut short") << "cut.log" << QByteArray::fromStdString(cut) << "1/0"
                               << ":"
            + QString::number(
                lineOf(breakLog, "\t        return pytree.tree_unflatten([\n\t            sum_1") - 1)
            + ": the function ends without a return statement"
                               << false;

    const std::string junk = readFileText(logFile("sac.log")) + "something else\n";
    QTest::addRow("stray line") << "junk.log" << QByteArray::fromStdString(junk) << "0/0"
                                << ":" + QString::number(lineOf(junk, "something else"))
            + ": not a TORCH_TRACE record (expected a line like 'V1124 04:23:44.672000 5986 file.py:12] "
              "{...}' or"
              " a tab-indented payload line)"
                                << false;

    const std::string badJson = edited("sac.log", "{\"aot_joint_graph\": {}, \"frame_id\": 0,",
        "{\"aot_joint_graph\": {}, \"frame_id\": 0,,");
    QTest::addRow("bad metadata") << "json.log" << QByteArray::fromStdString(badJson) << "0/0"
                                  << ":" + QString::number(lineOf(badJson, "\"frame_id\": 0,,"))
            + ": the record's metadata is not valid JSON (The JSON document has an improper structure: "
              "missing or superfluous commas, braces, missing keys, etc.)"
                                  << false;

    // A saved value that is no node of the joint graph (as RNG state that 2.14 adds after
    // tracing): addmm_1 renamed in the forward and backward graphs only.
    std::string renamed = readFileText(logFile("sac.log"));
    const auto from = renamed.find("{\"aot_forward_graph\"");
    const auto to = renamed.find("\nV", renamed.find("{\"aot_backward_graph\""));
    for (auto at = renamed.find("addmm_1", from); at < to; at = renamed.find("addmm_1", at))
        renamed.replace(at, 7, "getitem_9");
    const int backwardLine = lineOf(renamed, "{\"aot_backward_graph\"");
    QTest::addRow("unknown saved value") << "renamed.log" << QByteArray::fromStdString(renamed) << "0/0"
                                         << ":" + QString::number(backwardLine)
            + ": compile 0/0: the backward graph's input 'getitem_9' is not a node of the joint graph: "
              "PyTorch renamed or created it after tracing"
                                         << true;
    const std::string notReturned = edited("sac.log", "\t        addmm_1: \"f32[4, 8][8, 1]cpu\",\n",
        "\t        mm_1: \"f32[4, 8][8, 1]cpu\",\n");
    QTest::addRow("saved value the forward does not return")
        << "unreturned.log" << QByteArray::fromStdString(notReturned) << "0/0"
        << ":" + QString::number(lineOf(notReturned, "{\"aot_backward_graph\""))
            + ": compile 0/0: the backward graph's input 'mm_1' is not an output of the forward graph (line "
            + QString::number(lineOf(notReturned, "{\"aot_forward_graph\""))
            + "), so it cannot be matched to a saved value"
        << true;

    const std::string binary = readFileText(logFile("sac.log")) + "V1124 \xff\n";
    QTest::addRow("not text") << "binary.log" << QByteArray::fromStdString(binary) << "0/0"
                              << ":" + QString::number(lineOf(binary, "V1124 \xff"))
            + ":7: byte 0xFF is not UTF-8 text"
                              << false;

    std::string noPayload = readFileText(logFile("sac.log"));
    const auto record = noPayload.find("{\"aot_joint_graph\"");
    const auto payloadStart = noPayload.find('\n', record) + 1;
    const auto payloadEnd = noPayload.find("\nV", payloadStart) + 1;
    noPayload.erase(payloadStart, payloadEnd - payloadStart);
    QTest::addRow("payload missing") << "nopayload.log" << QByteArray::fromStdString(noPayload) << "0/0"
                                     << ":" + QString::number(lineOf(noPayload, "{\"aot_joint_graph\""))
            + ": the record announces a payload (has_payload) but no payload line follows; is the log cut "
              "short?" << false;
}

void TestTorchTrace::badIdsAndDamagedLogs()
{
    QFETCH(QString, name);
    QFETCH(QByteArray, text);
    QFETCH(QString, id);
    QFETCH(QString, message);
    QFETCH(bool, opens);
    const std::string path = (m_dir.path() + '/' + name).toStdString();
    writeText(path, text.toStdString());
    if (!opens) {
        QCOMPARE(errorOf([&] { trace::loadTracedGraph(path, id.toStdString()); }),
            QString::fromStdString(path) + message);
        return;
    }
    const JointGraph g = trace::loadTracedGraph(path, id.toStdString());
    QVERIFY(g.recorded().empty());
    const QString why = QString::fromStdString(g.source().unmatchedDecision);
    QVERIFY2(why.startsWith(QString::fromStdString(path) + message), qPrintable(why));
}

/// The joint graph's primals get the model's names: its record says which of Dynamo's inputs each
/// is (PlainAOTInput(idx=k)), dynamo_output_graph names those inputs, and describe_source says
/// where Dynamo found them (real GPT-2 and nanoGPT logs of PyTorch 2.14).
void TestTorchTrace::inputsAreNamedAsInTheModel()
{
    const JointGraph gpt2 = trace::loadTracedGraph(logFile("inductor_gpt2.log"), "0/0");
    const auto inputName = [](const JointGraph& g, const char* primal) {
        return g.node(g.find(primal)).meta.source->inputName;
    };
    QCOMPARE(inputName(gpt2, "primals_1"), std::string("ids"));
    QCOMPARE(inputName(gpt2, "primals_2"), std::string("lm.transformer.wte.weight"));
    QCOMPARE(inputName(gpt2, "primals_7"), std::string("lm.transformer.h.0.attn.c_attn.weight"));
    QCOMPARE(inputName(gpt2, "primals_29"), std::string("lm.transformer.ln_f.bias"));
    int named = 0;
    for (std::size_t i = 0; i < gpt2.size(); ++i)
        named += !gpt2.node(static_cast<NodeId>(i)).meta.source->inputName.empty();
    QCOMPARE(named, 29); // every primal; tangents have no name in the model
    // The order of Dynamo's inputs is not the module's: nanoGPT's embedding weight comes first.
    const JointGraph nano = trace::loadTracedGraph(logFile("inductor_nanogpt.log"), "0/0");
    QCOMPARE(inputName(nano, "primals_1"), std::string("wte.weight"));
    QCOMPARE(inputName(nano, "primals_2"), std::string("ids"));
    // A TORCH_LOGS capture holds no describe_source records: no names.
    const JointGraph capture
        = loadGraphFile(REMAT_TEST_DATA_DIR "/printed/torch_logs/inductor_gpt2.log", "0/0");
    QVERIFY(capture.node(capture.find("primals_2")).meta.source->inputName.empty());
}

void TestTorchTrace::sourcesReadAsModelNames()
{
    using trace::modelNameOfSource;
    QCOMPARE(modelNameOfSource("L['self']._modules['h']._modules['0']._parameters['weight']"),
        std::string("h.0.weight"));
    QCOMPARE(modelNameOfSource("L['self']._modules['bn']._buffers['running_mean']"),
        std::string("bn.running_mean"));
    QCOMPARE(modelNameOfSource("L['ids']"), std::string("ids"));
    QCOMPARE(modelNameOfSource("L['kwargs']['input_ids']"), std::string("kwargs.input_ids"));
    QCOMPARE(modelNameOfSource("L['args'][0]"), std::string("args.0"));
    QCOMPARE(modelNameOfSource("G['model'].layer.weight"), std::string("model.layer.weight"));
    QVERIFY(modelNameOfSource("L['x'].size()[0]").empty());
    QVERIFY(modelNameOfSource("L['x").empty());
    QVERIFY(modelNameOfSource("[]").empty());
    QVERIFY(modelNameOfSource("").empty());
}

/// A log cut short right after a compilation's dynamo_output_graph record (whose payload only names
/// inputs) still opens the compilations before it, as it did before that record was read.
void TestTorchTrace::aLogCutAfterDynamosGraphOpensWhatItHolds()
{
    const std::string log = readFileText(logFile("graph_break.log"));
    const auto second = log.find("{\"dynamo_output_graph\"", log.find("{\"dynamo_output_graph\"") + 1);
    QVERIFY(second != std::string::npos);
    const std::string cut = log.substr(0, log.find('\n', second) + 1);
    const std::vector<trace::TraceLogFile> logs {trace::readTraceLog(cut, "cut.log")};
    const trace::TraceListing listing = trace::listTraceLogs(logs, "cut.log");
    QCOMPARE(listing.graphs.size(), std::size_t(1));
    QCOMPARE(listing.graphs.front().id, std::string("0/0_1"));
    QCOMPARE(trace::loadTracedGraph(logs, "cut.log", "0/0_1").size(), std::size_t(17));
}

QTEST_GUILESS_MAIN(TestTorchTrace)
/// A capture of a GPT-2 under Inductor (make_captures.py inductor_gpt2) does not say its backend,
/// so nothing is replayed and our min-cut saves the no-ops Inductor removed; the note says that
/// with its joint-graph passes replayed, our min-cut saves exactly PyTorch's set.
void TestTorchTrace::anInductorCaptureIsToldItsBackend()
{
    const std::string path = REMAT_TEST_DATA_DIR "/printed/torch_logs/inductor_gpt2.log";
    const JointGraph g = loadGraphFile(path, "0/0");
    const RecordedPartition* recorded = g.recordedPartition("min_cut");
    QVERIFY(recorded);
    QVERIFY(!recorded->backendNamed && !recorded->partitionerNamed);
    QVERIFY(!decidedAfterInductorJointPasses(g));
    PartitionOptions options;
    options.rules = RuleSet::Torch214;
    const PartitionResult ours = partitionGraph(g, options);
    const auto comparison = compareWithRecorded(g, ours);
    QVERIFY(comparison && !comparison->identical());
    const ProvenanceNote provenance = unnamedProvenanceNote(g, ours, *comparison);
    QCOMPARE(provenance.remedy, ProvenanceRemedy::ReplayInductorPasses);
    const std::string& note = provenance.text;
    QVERIFY2(note.find("with Inductor's joint-graph passes replayed (remove_noop_ops, pointless views and "
                       "permutes) our min-cut saves exactly PyTorch's 46 values")
            != std::string::npos,
        note.c_str());
    options.config.inductorJointPasses = true;
    QVERIFY(compareWithRecorded(g, partitionGraph(g, options))->identical());
    // An aot_eager capture whose min-cut matches has nothing to add.
    const JointGraph eager = loadGraphFile(REMAT_TEST_DATA_DIR "/printed/torch_logs/graph_break.log", "1/0");
    options.config.inductorJointPasses = false;
    const PartitionResult eagerPlan = partitionGraph(eager, options);
    QVERIFY(unnamedProvenanceNote(eager, eagerPlan, *compareWithRecorded(eager, eagerPlan)).text.empty());
}

/// A real TORCH_LOGS capture (stderr of TORCH_LOGS="aot_joint_graph,aot_graphs", made by
/// printed/torch_logs/make_captures.py with PyTorch 2.14) of the model graph_break.log traced: its
/// compilations open by compile id, and each one's fw_metadata (static_input_indices) and forward
/// and backward graphs give PyTorch's decision, the one the TORCH_TRACE log records and ours.
void TestTorchTrace::captureOpensAsALogDoes()
{
    const std::string path = REMAT_TEST_DATA_DIR "/printed/torch_logs/graph_break.log";
    const auto capture = trace::readTorchLogsCapture(readFileText(path), path);
    QVERIFY(capture.has_value());
    QCOMPARE(QString::fromStdString(capture->format), QStringLiteral("TORCH_LOGS capture"));
    QStringList ids;
    for (const auto& c : capture->compiles) {
        ids << QString::fromStdString(c.id);
        QVERIFY(c.joint && c.forward && c.backward && c.forwardMetadata);
    }
    QCOMPARE(ids.join(QLatin1Char(' ')), QStringLiteral("0/0_1 1/0"));
    QCOMPARE(errorOf([&] { loadGraphFile(path); }),
        QString::fromStdString(path)
            + QStringLiteral(": the log holds 2 joint graphs (0/0_1, 1/0): choose one with a compile id "
                             "(--graph on the command line)"));
    QCOMPARE(errorOf([&] { loadGraphFile(path, "5/0"); }),
        QString::fromStdString(path) + QStringLiteral(": no compiled graph 5/0 (the log has: 0/0_1, 1/0)"));

    for (const char* id : {"0/0_1", "1/0"}) {
        const JointGraph captured = loadGraphFile(path, id);
        const JointGraph traced = trace::loadTracedGraph(logFile("graph_break.log"), id);
        QCOMPARE(captured.size(), traced.size());
        for (std::size_t i = 0; i < captured.size(); ++i) {
            const auto n = static_cast<NodeId>(i);
            QCOMPARE(
                QString::fromStdString(captured.node(n).name), QString::fromStdString(traced.node(n).name));
            QCOMPARE(captured.opOf(n).target, traced.opOf(n).target);
        }
        QVERIFY(captured.source().producer.starts_with("TORCH_LOGS capture"));
        QCOMPARE(rulesOfRecording(captured), RuleSet::Torch214);
        QVERIFY(captured.source().partitionedInsideCompile);
        const RecordedPartition* recorded = captured.recordedPartition("min_cut");
        QVERIFY(recorded);
        QCOMPARE(joined(recorded->savedValues), joined(traced.recordedPartition("min_cut")->savedValues));
        // Without static_input_indices the capture's 1/0 would save t_1 where 2.14 saves primals_1.
        PartitionOptions options;
        options.rules = RuleSet::Torch214;
        const PartitionResult ours = partitionGraph(captured, options);
        std::vector<std::string> names;
        for (NodeId v : ours.savedValues)
            names.push_back(captured.node(v).name);
        QCOMPARE(joined(names, true), joined(recorded->savedValues, true));
        QVERIFY(!recorded->provenanceCaveat.empty());
    }

    // A capture of aot_graphs alone (no joint graph) opens its forward graph as the printed reader
    // does, which says where the joint graph is printed when asked to partition it.
    std::string partitionedOnly;
    for (const auto& line : printed::logLines(readFileText(path))) {
        if (line.text.find("__aot_joint_graph") == std::string::npos)
            partitionedOnly += line.text + "\n";
    }
    QVERIFY(!trace::readTorchLogsCapture(partitionedOnly, "aot_graphs.log"));
    const JointGraph forwardOnly = loadGraphText(partitionedOnly, "aot_graphs.log");
    QCOMPARE(forwardOnly.kind(), GraphKind::Forward);
    QVERIFY2(forwardOnly.source().producer.starts_with("printed FX graph (TORCH_LOGS"),
        forwardOnly.source().producer.c_str());

    // A capture without aot_graphs' fw_metadata keeps no decision: its parameters are unknown.
    const JointGraph handwritten
        = loadGraphFile(REMAT_TEST_DATA_DIR "/printed/handwritten/aot_graphs.torch_logs.log");
    QVERIFY(handwritten.recorded().empty());
    QVERIFY2(handwritten.source().description.find("no Forward and Backward graphs with their fw_metadata")
            != std::string::npos,
        handwritten.source().description.c_str());
}

#include "tst_torchtrace.moc"
