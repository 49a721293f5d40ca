// SPDX-License-Identifier: MIT
#pragma once

#include "explain/cut_neighbourhood.h"
#include "explain/plan_comparison.h"
#include "explain/plan_request.h"
#include "explain/what_if.h"
#include "model/budget_settings.h"
#include "model/loaded_graph.h"

#include <QObject>
#include <QPointer>
#include <QThreadPool>

#include <functional>
#include <memory>

namespace remat::ui {

/// A node's what-if and its place in the cut, computed off the GUI thread.
struct NodeAnalysis {
    std::uint64_t generation = 0;
    NodeId node = kNoNode;
    PlanRequest request;
    WhatIf whatIf;
    std::optional<CutNeighbourhood> neighbourhood;
    QString error;
    double seconds = 0;
};
using NodeAnalysisPtr = std::shared_ptr<const NodeAnalysis>;

/// One side of a plan comparison, as the Compare dock offers it.
struct PlanChoice {
    enum class Kind { Current, PyTorch, Budget, OtherRules, WithoutUserTags, PlanFile };
    Kind kind = Kind::Current;
    double budget = 0.5; ///< Kind::Budget
    QString path; ///< Kind::PlanFile
    QString label() const;
};

/// Two plans side by side.
struct PlanPair {
    std::uint64_t generation = 0;
    QString labelA, labelB;
    std::shared_ptr<const PartitionResult> a, b;
    PlanComparison comparison;
    QString error;
};
using PlanPairPtr = std::shared_ptr<const PlanPair>;

/// Answers questions about plans of the open graph off the GUI thread, with one PlanRunner per
/// graph and estimator (the preparation of each rule set is kept between questions): what flipping
/// a node would do, and how two plans differ. Newer questions of a kind supersede older ones.
class PlanAnalyst : public QObject {
    Q_OBJECT
public:
    explicit PlanAnalyst(QObject* parent = nullptr);
    ~PlanAnalyst() override;

    void setGraph(LoadedGraphPtr graph);
    /// The request the document's settings make (budget mode included).
    static PlanRequest requestFor(
        const PartitionOptions& options, bool budgetMode, const BudgetSettings& settings);

    void analyseNode(const PlanRequest& request, NodeId node);
    /// `current` is the request behind Kind::Current (and the base the other kinds vary).
    void compare(const PlanRequest& current, const PlanChoice& a, const PlanChoice& b);
    /// A question is queued or being answered.
    bool isBusy() const { return m_pending > 0; }

Q_SIGNALS:
    void nodeAnalysed(remat::ui::NodeAnalysisPtr analysis);
    void compared(remat::ui::PlanPairPtr pair);

private:
    struct Runners;
    /// Back on the GUI thread (if the analyst still exists): counts the job done, then `function`.
    static void finish(QPointer<PlanAnalyst> self, std::function<void(PlanAnalyst&)> function);

    QThreadPool m_pool;
    LoadedGraphPtr m_graph;
    std::shared_ptr<Runners> m_runners; ///< used on the pool's thread only
    std::uint64_t m_nodeGeneration = 0;
    std::uint64_t m_compareGeneration = 0;
    int m_pending = 0;
};

} // namespace remat::ui

Q_DECLARE_METATYPE(remat::ui::NodeAnalysisPtr)
Q_DECLARE_METATYPE(remat::ui::PlanPairPtr)
