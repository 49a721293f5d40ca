// SPDX-License-Identifier: MIT
#include "explain/plan_comparison.h"

#include <algorithm>

namespace remat {
namespace {

/// What a plan passes to the backward: its saved values and, with dynamic shapes, its SymInts.
std::vector<NodeId> sortedSaved(const PartitionResult& plan)
{
    std::vector<NodeId> nodes = plan.savedValues;
    nodes.insert(nodes.end(), plan.savedSymNodes.begin(), plan.savedSymNodes.end());
    std::sort(nodes.begin(), nodes.end());
    nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
    return nodes;
}

} // namespace

PlanComparison comparePlans(
    const PartitionResult& a, const PlanSummary& sa, const PartitionResult& b, const PlanSummary& sb)
{
    // Node ids follow graph order, so sorted ids are graph order too.
    const auto savedA = sortedSaved(a);
    const auto savedB = sortedSaved(b);
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
