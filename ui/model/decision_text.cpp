// SPDX-License-Identifier: MIT
#include "model/decision_text.h"

#include <QObject>
#include <QStringList>

#include <algorithm>

#include "budget/region_budget.h"
#include "explain/recorded_comparison.h"
#include "model/budget_outcome.h"
#include "model/node_text.h"
#include "model/policy_names.h"
#include "model/qt_strings.h"
#include "partition/rng_states.h"

namespace remat::ui {

QString decisionHeadline(const LoadedGraph& graph, const PartitionOutcome* outcome, NodeId n)
{
    if (!outcome || !outcome->ok())
        return QObject::tr("not partitioned");
    const auto f = outcome->flagsOf(n);
    if (f & DceRemoved)
        return QObject::tr("removed as dead code before partitioning");
    if (f & CseMerged) {
        const auto i = static_cast<std::size_t>(n);
        const NodeId into = outcome->result->mergedInto[i];
        if (i < outcome->result->removedByJointPasses.size() && outcome->result->removedByJointPasses[i])
            return QObject::tr("removed as a no-op by Inductor's joint-graph passes (uses read %1)")
                .arg(graph.label(into).name);
        return QObject::tr("merged into %1 by common-subexpression elimination").arg(graph.label(into).name);
    }
    if ((f & Saved) && outcome->result->isOffloaded(n))
        return QObject::tr("saved on the host (CPU offload, %1)").arg(formatBytes(graph.bytesOf(n)));
    if (f & Saved)
        return QObject::tr("saved for the backward (%1)").arg(formatBytes(graph.bytesOf(n)));
    if (f & Recomputed)
        return QObject::tr("recomputed in the backward");
    if ((f & InForward) && (f & InBackward))
        return QObject::tr("in the forward and the backward");
    if (f & InForward)
        return QObject::tr("forward only");
    if (f & InBackward)
        return QObject::tr("backward only");
    return QObject::tr("in neither graph (unused)");
}

QString decisionReason(const LoadedGraph& graph, const PartitionOutcome* outcome, NodeId n)
{
    Q_UNUSED(graph);
    if (!outcome || !outcome->ok())
        return outcome ? outcome->error : QString();
    const PartitionResult& r = *outcome->result;
    const auto f = outcome->flagsOf(n);
    const bool minCut = outcome->options.partitioner == PartitionerKind::MinCut;
    const auto tag
        = r.effectiveTags.empty() ? CheckpointPolicy::None : r.effectiveTags[static_cast<std::size_t>(n)];
    const QString tagName = QLatin1String(policyName(tag));
    QStringList parts;
    const int ban = outcome->banIndex.empty() ? -1 : outcome->banIndex[static_cast<std::size_t>(n)];
    if (ban >= 0)
        parts << QObject::tr("Banned from recomputation: %1.")
                     .arg(QString::fromStdString(r.banned[static_cast<std::size_t>(ban)].reason));
    // Under a memory budget, two stages run no min-cut, and the knapsack decides some recomputations.
    const BudgetedPlan* budget = outcome->budget ? outcome->budget->plan.get() : nullptr;
    const bool noCut = budget && budget->stage == BudgetStage::KeepInputs;
    const auto& allowed = budget ? budget->decision.recomputable : std::vector<NodeId> {};
    const bool knapsackAllowed = std::find(allowed.begin(), allowed.end(), n) != allowed.end();
    if (f & Saved) {
        if (tag == CheckpointPolicy::MustSave)
            parts << QObject::tr("Tagged MUST_SAVE: the partitioner has to keep it.");
        else if (noCut)
            parts << QObject::tr(
                "Memory budget %1 (%2): only graph inputs, MUST_SAVE nodes and values that must stay in the "
                "forward are saved.")
                         .arg(toQString(pythonFloat(budget->budget)), toQString(stageName(budget->stage)));
        else if (minCut)
            parts << QObject::tr(
                "Its save edge is in the minimum cut: keeping it is cheaper than recomputing "
                "what the backward needs from it.");
        else
            parts << QObject::tr("The default partition saves every forward value the backward uses.");
    } else if (f & Recomputed) {
        if (tag == CheckpointPolicy::MustRecompute || tag == CheckpointPolicy::PreferRecompute)
            parts << QObject::tr("Tagged %1: the backward computes it again from saved values.").arg(tagName);
        else if (noCut)
            parts << QObject::tr("Memory budget %1 (%2): the backward recomputes everything it can.")
                         .arg(toQString(pythonFloat(budget->budget)), toQString(stageName(budget->stage)));
        else if (knapsackAllowed)
            parts << QObject::tr(
                "The memory budget's knapsack allowed recomputing it (one of the %1 banned nodes it stopped "
                "saving to fit budget %2); the min-cut then recomputed it.")
                         .arg(budget->decision.knapsack.recomputed.size())
                         .arg(toQString(pythonFloat(budget->budget)));
        else if (budget && !stageLiftedBans(budget->stage).empty())
            // A node the plain min-cut bans (gelu "materialized in the backward") is recomputed here.
            parts << QObject::tr(
                "Memory budget %1 (%2): its min-cut goes without %3, and its save edge is not in that "
                "cut: recomputing it from saved values costs less than keeping it.")
                         .arg(toQString(pythonFloat(budget->budget)), toQString(stageName(budget->stage)),
                             toQString(stageLiftedBans(budget->stage)));
        else
            parts << QObject::tr(
                "Cheaper to recompute from saved values than to keep: its save edge is not in the cut.");
        const auto& rng = outcome->rngStateOps;
        if (std::find(rng.begin(), rng.end(), n) != rng.end())
            parts << QObject::tr(
                "A random op: the forward runs it through run_and_save_rng_state and saves the RNG state "
                "(%1), and the backward replays it with that state (run_with_rng_state), so it draws the "
                "same values.")
                         .arg(formatBytes(kCpuRngStateBytes));
    }
    if (!outcome->referenceKey.isEmpty() && bool(f & Saved) != bool(f & ReferenceSaved)) {
        parts << ((f & Saved)
                ? QObject::tr("PyTorch's recorded %1 partition does not save it.").arg(outcome->referenceKey)
                : QObject::tr("PyTorch's recorded %1 partition saves it.").arg(outcome->referenceKey));
        const std::vector<NodeId> self {n};
        const std::string replaced = (f & Saved) ? replacedSymbolNote(graph.graph, self, {})
                                                 : replacedSymbolNote(graph.graph, {}, self);
        if (!replaced.empty())
            parts << toQString(replaced) + QLatin1Char('.');
    }
    return parts.join(QLatin1Char(' '));
}

QString tagDescription(const LoadedGraph& graph, CheckpointPolicy inForce, bool userSet,
    const PartitionOutcome* outcome, NodeId n)
{
    QString text
        = inForce == CheckpointPolicy::None ? QObject::tr("none") : QString::fromLatin1(policyName(inForce));
    if (userSet)
        text += QObject::tr(" (your tag)");
    else if (inForce != CheckpointPolicy::None)
        text += QObject::tr(" (from the file's meta[\"recompute\"])");
    if (outcome && outcome->ok() && !outcome->result->effectiveTags.empty()) {
        const auto effective = outcome->result->effectiveTags[static_cast<std::size_t>(n)];
        // A getitem takes the user's tag of the op whose tuple it unpacks (effectiveTags).
        const auto& tags = outcome->options.tags;
        const auto fromOp = std::find_if(tags.begin(), tags.end(), [&](const auto& tag) {
            return tag.second == effective && graph.graph.opOf(n).target == "_operator.getitem"
                && std::find(graph.graph.node(n).inputs.begin(), graph.graph.node(n).inputs.end(), tag.first)
                != graph.graph.node(n).inputs.end();
        });
        if (effective != inForce && !userSet && fromOp != tags.end())
            text += QObject::tr("; %1 from your tag on %2, whose outputs it unpacks")
                        .arg(QLatin1String(policyName(effective)), graph.label(fromOp->first).name);
        else if (effective != inForce)
            text += QObject::tr("; the partitioner's clean-up passes made it %1")
                        .arg(QLatin1String(policyName(effective)));
    }
    return text;
}

QString optionsDescription(const PartitionOptions& options)
{
    QString text = toQString(partitionerName(options.partitioner)) + QStringLiteral(" · ")
        + toQString(ruleSetName(options.rules)) + QObject::tr(" rules");
    if (options.partitioner == PartitionerKind::MinCut && options.rules == RuleSet::Torch113)
        text += QStringLiteral(" · ") + toQString(compilerName(options.compiler)) + QObject::tr(" op list");
    return text;
}

} // namespace remat::ui
