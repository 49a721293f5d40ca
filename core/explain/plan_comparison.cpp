// SPDX-License-Identifier: MIT
#include "explain/plan_comparison.h"

#include <algorithm>

namespace remat {
namespace {

std::vector<NodeId> sorted(std::vector<NodeId> nodes)
{
    std::sort(nodes.begin(), nodes.end());
    nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
    return nodes;
}

} // namespace

PlanComparison comparePlans(
    const PartitionResult& a, const PlanSummary& sa, const PartitionResult& b, const PlanSummary& sb)
{
    // Node ids follow graph order, so sorted ids are graph order too.
    const auto savedA = sorted(a.savedValues);
    const auto savedB = sorted(b.savedValues);
    PlanComparison c;
    std::set_difference(
        savedA.begin(), savedA.end(), savedB.begin(), savedB.end(), std::back_inserter(c.onlyInA));
    std::set_difference(
        savedB.begin(), savedB.end(), savedA.begin(), savedA.end(), std::back_inserter(c.onlyInB));
    std::set_intersection(
        savedA.begin(), savedA.end(), savedB.begin(), savedB.end(), std::back_inserter(c.inBoth));
    c.a = sa;
    c.b = sb;
    return c;
}

} // namespace remat
