// SPDX-License-Identifier: MIT
#include "explain/recorded_budget_points.h"

#include "budget/plan_from_saved.h"
#include "explain/recorded_plan.h"
#include "graph/error.h"

#include <algorithm>
#include <iterator>

namespace remat {

RecordedBudgetPoints measureRecordedBudgetPlans(const BudgetSession& session, bool simulatePeak)
{
    RecordedBudgetPoints out;
    const auto records = comparableBudgetRecords(
        session.graph(), session.prepared().options(), budgetRecordVariant(session.planner().options()));
    for (const RecordedBudgetPlan& record : records) {
        try {
            std::vector<std::string> names = record.plan.recorded->savedValues;
            names.insert(names.end(), record.plan.recorded->savedSymNodes.begin(),
                record.plan.recorded->savedSymNodes.end());
            BudgetedPlan plan
                = planFromSavedNames(session, names, record.plan.key, MemorySimulationOptions {false, false});
            if (!simulatePeak)
                plan.metrics.peakBytes.reset();
            std::vector<NodeId> saved = plan.result.savedValues;
            std::sort(saved.begin(), saved.end());
            std::vector<NodeId> ours = session.plan(record.budget).result.savedValues;
            std::sort(ours.begin(), ours.end());
            RecordedBudgetPoint point {
                record.budget, record.plan.key, plan.metrics, {}, ours == saved, {}, {}};
            std::set_difference(ours.begin(), ours.end(), saved.begin(), saved.end(),
                std::back_inserter(point.savedOnlyByOurs));
            std::set_difference(saved.begin(), saved.end(), ours.begin(), ours.end(),
                std::back_inserter(point.savedOnlyByPyTorch));
            point.saved = std::move(saved);
            out.points.push_back(std::move(point));
        } catch (const Error& e) {
            out.unusable.push_back(e.what());
        }
    }
    return out;
}

} // namespace remat
