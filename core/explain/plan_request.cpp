// SPDX-License-Identifier: MIT
#include "explain/plan_request.h"

#include <algorithm>
#include <tuple>

namespace remat {
namespace {

auto configFields(const PartitionerConfig& c)
{
    const MinCutOptions& m = c.minCut;
    return std::make_tuple(m.banIfUsedFarApart, m.banIfLongFusibleChains, m.banIfMaterializedBackward,
        m.banIfNotInAllowlist, m.banIfReduction, c.aggressiveRecomputation, c.recomputeViews,
        c.treatParametersAsFreeToSave, c.cse, c.activationOffloading, c.inductorJointPasses);
}

bool sameBudgetOptions(const BudgetOptions& a, const BudgetOptions& b)
{
    const auto deviceName = [](const BudgetOptions& o) { return o.device ? o.device->name : std::string(); };
    return a.solver == b.solver && a.estimator == b.estimator && deviceName(a) == deviceName(b);
}

} // namespace

bool samePlanRequest(const PlanRequest& a, const PlanRequest& b)
{
    const PartitionOptions& x = a.options;
    const PartitionOptions& y = b.options;
    if (a.budget != b.budget || configFields(x.config) != configFields(y.config) || x.tags != y.tags)
        return false;
    if (a.budget) // the memory budget always runs the newest min-cut
        return sameBudgetOptions(a.budgetOptions, b.budgetOptions);
    return x.partitioner == y.partitioner && x.rules == y.rules && x.compiler == y.compiler;
}

PlanRequest withTag(PlanRequest request, NodeId node, CheckpointPolicy policy)
{
    auto& tags = request.options.tags;
    tags.erase(std::remove_if(tags.begin(), tags.end(), [&](const auto& tag) { return tag.first == node; }),
        tags.end());
    tags.emplace_back(node, policy);
    return request;
}

} // namespace remat
