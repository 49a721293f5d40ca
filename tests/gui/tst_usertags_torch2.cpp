// SPDX-License-Identifier: MIT
// Issue 9: tags a user sets in the app must never make a torch-2.14 plan fail where PyTorch 2.14
// would not. The case reported: the group "blocks 12–23" of gpt_n96 tagged Prefer Recompute, at an
// activation memory budget of 0.3 (the backward could not compute 'add_385').
#include "budget/budget_session.h"
#include "graph/error.h"
#include "io/graph_loader.h"
#include "model/graph_regions.h"
#include "model/loaded_graph.h"

#include <QFile>
#include <QTest>

#include <algorithm>

using namespace remat;
using namespace remat::ui;

namespace {

/// The nodes the app tags when the user tags a group: its members, minus the graph inputs.
std::vector<NodeId> taggableMembers(const LoadedGraph& loaded, const QString& label)
{
    for (const auto& group : loaded.groups.groups) {
        if (group.label != label)
            continue;
        std::vector<NodeId> nodes;
        for (NodeId n : group.members) {
            if (isTaggable(loaded.graph, n))
                nodes.push_back(n);
        }
        return nodes;
    }
    return {};
}

} // namespace

class TestUserTagsTorch2 : public QObject {
    Q_OBJECT

private slots:
    void preferRecomputeOnABlockRangeStillPlans_data()
    {
        QTest::addColumn<double>("budget");
        QTest::newRow("0.3 (the report)") << 0.3;
        QTest::newRow("0") << 0.0;
        QTest::newRow("1") << 1.0;
    }
    void preferRecomputeOnABlockRangeStillPlans()
    {
        QFETCH(double, budget);
        const QString path = QStringLiteral(REMAT_SHARED_DIR "/oracle/gpt_n96.json");
        QVERIFY2(QFile::exists(path), qPrintable(path + QStringLiteral(" is missing")));
        static const LoadedGraphPtr loaded = analyseGraph(loadGraphFile(path.toStdString()), path);
        const QString label = QString::fromUtf8("blocks 12–23");
        const auto nodes = taggableMembers(*loaded, label);
        QVERIFY2(!nodes.empty(), "gpt_n96 has no group \"blocks 12–23\" any more");

        PartitionOptions options;
        options.rules = RuleSet::Torch214;
        for (NodeId n : nodes)
            options.tags.emplace_back(n, CheckpointPolicy::PreferRecompute);
        try {
            const BudgetSession session(loaded->graph, options, BudgetOptions {});
            const BudgetedPlan plan = session.plan(budget);
            QVERIFY(!plan.result.bwNodes.empty());
            // The in-place dropout masks (bernoulli_) must run in the forward: their tags are
            // not applied, and the plan says so.
            const auto& notes = plan.result.notes;
            QVERIFY(std::any_of(notes.begin(), notes.end(), [](const std::string& note) {
                return note.find("recompute tags not applied") != std::string::npos;
            }));
            // Prefer Recompute is honoured on every other tagged node: none is saved.
            int honoured = 0;
            for (NodeId n : nodes) {
                if (plan.result.effectiveTags[static_cast<std::size_t>(n)]
                    != CheckpointPolicy::PreferRecompute)
                    continue;
                ++honoured;
                QVERIFY2(!plan.result.isSaved(n), loaded->graph.node(n).name.c_str());
            }
            QVERIFY(honoured > 0);
        } catch (const Error& e) {
            QFAIL(e.what());
        }
    }
};

QTEST_MAIN(TestUserTagsTorch2)
#include "tst_usertags_torch2.moc"
