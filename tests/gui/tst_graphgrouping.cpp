// SPDX-License-Identifier: MIT
// Collapsing large graphs: repeated blocks are found without module info, modules name them.
#include "gui_test_support.h"
#include "io/graph_loader.h"
#include "layout/view_graph.h"
#include "model/graph_grouping.h"
#include "model/loaded_graph.h"
#include "model/repeated_blocks.h"

#include <QTest>

#include <set>

using namespace remat;
using namespace remat::ui;

class TestGraphGrouping : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { test::isolate(); }

    void findsThePeriodAndTheSeam()
    {
        // prologue (2), four blocks of "a b c d", epilogue (1); the narrow seams sit before each "a".
        const std::vector<std::uint32_t> ops = {9, 8, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 7};
        std::vector<std::pair<int, int>> edges;
        for (int i = 0; i + 1 < static_cast<int>(ops.size()); ++i)
            edges.emplace_back(i, i + 1);
        for (int b = 0; b < 4; ++b) // inside each block, a skip edge widens the middle
            edges.emplace_back(2 + b * 4, 2 + b * 4 + 3);
        const auto cross = cutWidths(static_cast<int>(ops.size()), edges);
        const auto segments = findRepeatedBlocks(ops, cross, 2, 3, 0.75);
        QCOMPARE(segments.size(), std::size_t(6));
        QCOMPARE(segments[0].begin, 0);
        QCOMPARE(segments[0].end, 2);
        QVERIFY(!segments[0].repeated);
        for (int b = 1; b <= 4; ++b) {
            QVERIFY(segments[static_cast<std::size_t>(b)].repeated);
            QCOMPARE(segments[static_cast<std::size_t>(b)].size(), 4);
        }
        QVERIFY(!segments.back().repeated);
    }

    void smallGraphsAreNotGrouped()
    {
        const auto graph = loadGraphFile(test::samplePath("mlp.json").toStdString());
        QVERIFY(groupGraph(graph, computeRegions(graph)).empty());
    }

    void gptBlocksAreFoundWithoutModuleInfo()
    {
        const QString path = test::oraclePath("gpt_n24.json");
        QVERIFY2(QFile::exists(path),
            qPrintable(path
                + QStringLiteral(" is missing: the shared folder must be beside "
                                 "the checkout (REMAT_SHARED_DIR)")));
        const LoadedGraphPtr loaded = analyseGraph(loadGraphFile(path.toStdString()), path);
        const GroupTree& tree = loaded->groups;
        QVERIFY(!tree.empty());
        QVERIFY2(tree.method.contains(QStringLiteral("repeated blocks")), qPrintable(tree.method));
        int forwardBlocks = 0;
        int backwardBlocks = 0;
        for (const Group& g : tree.groups) {
            if (!g.children.empty())
                continue;
            if (g.label.startsWith(QStringLiteral("block ")))
                ++forwardBlocks;
            if (g.label.startsWith(QStringLiteral("∇ block ")))
                ++backwardBlocks;
        }
        QCOMPARE(forwardBlocks, 24);
        QVERIFY2(backwardBlocks >= 20, "most backward groups are named after the block they differentiate");
        // Every node but the output sits in exactly one leaf group; groups list members in order.
        for (std::size_t i = 0; i < loaded->size(); ++i) {
            if (loaded->regions.region[i] != Region::Output)
                QVERIFY(tree.leafOf[i] >= 0);
        }
        for (const Group& g : tree.groups)
            QVERIFY(std::is_sorted(g.members.begin(), g.members.end()));
        // The summary is small enough to read.
        QVERIFY(tree.roots.size() <= 24);
        const ViewGraph summary = buildViewGraph(*loaded, std::vector<char>(tree.groups.size(), 0));
        QCOMPARE(summary.items.size(), tree.roots.size());
        QVERIFY(!summary.edges.empty());
    }

    void modulesNameTheGroups()
    {
        const auto path = test::samplePath("gpt_small.json");
        const LoadedGraphPtr loaded = analyseGraph(loadGraphFile(path.toStdString()), path);
        std::set<QString> labels;
        for (const Group& g : loaded->groups.groups)
            labels.insert(g.label);
        QVERIFY2(labels.count(QStringLiteral("blocks.0")) == 1, "blocks are named after their nn.Module");
        QVERIFY(labels.count(QStringLiteral("∇ blocks.3")) == 1);
    }

    /// Dynamo's module stacks all start with the whole model ("L['m']"), and most go on through
    /// "L['m'].model": grouping by the outermost module made one group of the whole forward,
    /// named "L['m']". Groups now start where the modules tell parts apart, named without the
    /// part every node shares.
    void dynamoModulesAreGroupedBelowTheWholeModel()
    {
        const auto path = test::oraclePath("torch2/hf_llama_gqa_train_logits.json");
        const LoadedGraphPtr loaded = analyseGraph(loadGraphFile(path.toStdString()), path);
        std::set<QString> labels;
        for (const Group& g : loaded->groups.groups) {
            labels.insert(g.label);
            QVERIFY2(!g.label.contains(QStringLiteral("L['m']")), qPrintable(g.label));
        }
        for (const char* expected : {"model.layers.0", "model.layers.1", "lm_head", "∇ model.layers.1"})
            QVERIFY2(labels.count(QString::fromUtf8(expected)) == 1, expected);
        // The model's own ops (the loss, say) sit at its top level.
        const auto vitPath = test::oraclePath("torch2/tv_vit_tiny_train.json");
        const LoadedGraphPtr vit = analyseGraph(loadGraphFile(vitPath.toStdString()), vitPath);
        labels.clear();
        for (const Group& g : vit->groups.groups)
            labels.insert(g.label);
        for (const char* expected : {"top level", "encoder.ln", "heads.head"})
            QVERIFY2(labels.count(QString::fromUtf8(expected)) == 1, expected);
        QVERIFY(loaded->groups.roots.size() >= 8);
    }

    /// Two groups are never named alike on one side: hf_gpt2's "transformer" own ops (position ids,
    /// the attention mask) were split by its embeddings into two "transformer" groups. And a run
    /// of small modules with no main one is named after them: swin's "permute … head", not "part 6".
    /// No label keeps Dynamo's name for the model ("L['self'].blocks.0").
    void groupsSayWhatTheyHold()
    {
        const auto labelsOf = [](const char* file) {
            const auto path = test::oraclePath(file);
            const LoadedGraphPtr loaded = analyseGraph(loadGraphFile(path.toStdString()), path);
            QStringList labels;
            for (const Group& g : loaded->groups.groups)
                labels << g.label;
            return labels;
        };
        const QStringList gpt2 = labelsOf("torch2/hf_gpt2_train_loss.json");
        QCOMPARE(gpt2.count(QStringLiteral("transformer")), 1);
        QCOMPARE(gpt2.count(QStringLiteral("transformer.h.0")), 1);
        QCOMPARE(gpt2.count(QStringLiteral("∇ transformer")), 1);
        const QStringList swin = labelsOf("torch2/tv_swin_tiny_train.json");
        QVERIFY2(swin.contains(QStringLiteral("permute … head")), qPrintable(swin.join(QLatin1Char('|'))));
        QVERIFY2(!swin.join(QLatin1Char('|')).contains(QStringLiteral("part ")),
            qPrintable(swin.join(QLatin1Char('|'))));
        // Dynamo's root ("L['self']") goes even when no node sits in the model's own scope.
        const QStringList tf = labelsOf("torch2/sac_tf_plain.json");
        QVERIFY2(tf.contains(QStringLiteral("blocks.0")) && tf.contains(QStringLiteral("∇ blocks.1")),
            qPrintable(tf.join(QLatin1Char('|'))));
        QVERIFY2(!tf.join(QLatin1Char('|')).contains(QStringLiteral("L['")),
            qPrintable(tf.join(QLatin1Char('|'))));
    }
};

QTEST_MAIN(TestGraphGrouping)
#include "tst_graphgrouping.moc"
