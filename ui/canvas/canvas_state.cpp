// SPDX-License-Identifier: MIT
#include "canvas/canvas_state.h"

#include <algorithm>

namespace remat::ui {

void CanvasState::updateGroupStats()
{
    groupStats.clear();
    if (!graph)
        return;
    const GroupTree& tree = graph->groups;
    groupStats.assign(tree.groups.size(), {});
    for (std::size_t g = 0; g < tree.groups.size(); ++g) {
        GroupStats& s = groupStats[g];
        for (NodeId n : tree.groups[g].members) {
            ++s.nodes;
            const auto f = flags(n);
            if (f & Saved) {
                ++s.saved;
                s.savedBytes += graph->bytesOf(n);
            } else if (f & ReferenceSaved) {
                ++s.referenceOnly;
            }
            if (f & Recomputed)
                ++s.recomputed;
            if (f & Banned)
                ++s.banned;
            if (tag(n) != CheckpointPolicy::None)
                ++s.tagged;
            const PlanSide side = planSide(n);
            s.onlyA += side == OnlyA;
            s.onlyB += side == OnlyB;
            s.flashing += isFlashing(n);
            if (const int part = devicePartitionOf(n); part >= 0) {
                if (s.perDevicePartition.size() <= static_cast<std::size_t>(part))
                    s.perDevicePartition.resize(static_cast<std::size_t>(part) + 1, 0);
                ++s.perDevicePartition[static_cast<std::size_t>(part)];
            }
        }
    }
    // Bars compare siblings: top-level groups with each other, blocks within a range.
    std::vector<std::int64_t> largest(tree.groups.size() + 1, 0);
    auto slot = [&tree](std::size_t g) {
        return tree.groups[g].parent < 0 ? tree.groups.size()
                                         : static_cast<std::size_t>(tree.groups[g].parent);
    };
    for (std::size_t g = 0; g < tree.groups.size(); ++g)
        largest[slot(g)] = std::max(largest[slot(g)], groupStats[g].savedBytes);
    for (std::size_t g = 0; g < tree.groups.size(); ++g) {
        const auto top = largest[slot(g)];
        groupStats[g].savedShare
            = top > 0 ? static_cast<double>(groupStats[g].savedBytes) / static_cast<double>(top) : 0.0;
    }
}

} // namespace remat::ui
