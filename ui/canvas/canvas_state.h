// SPDX-License-Identifier: MIT
#pragma once

#include "canvas/canvas_palette.h"
#include "layout/view_graph.h"
#include "model/partition_outcome.h"

#include <memory>
#include <vector>

namespace remat::ui {

/// Decisions summed over a group's members, for its box.
struct GroupStats {
    int nodes = 0;
    int saved = 0;
    int recomputed = 0;
    int banned = 0;
    int tagged = 0;
    int referenceOnly = 0; ///< saved by PyTorch's reference, not by us
    int onlyA = 0; ///< plan comparison: saved by plan A only
    int onlyB = 0; ///< plan comparison: saved by plan B only
    int flashing = 0; ///< members a what-if changes
    std::vector<int> perDevicePartition; ///< device split: members per partition (empty when off)
    std::int64_t savedBytes = 0;
    /// savedBytes relative to the largest among the group's siblings (0..1): the bar length,
    /// so that blocks can be compared at a glance.
    double savedShare = 0;
};

enum class Highlight : std::uint8_t { None, Producer, Consumer, Focus };

/// Everything the canvas items read when they paint. Items keep a pointer to it instead of
/// their own copies, so that a new partition recolours 17k items with one repaint: update the
/// state, then repaint the viewport. Lives on the GUI thread.
struct CanvasState {
    LoadedGraphPtr graph;
    std::shared_ptr<const ViewGraph> view;
    CanvasPalette palette = CanvasPalette::defaults();
    PartitionOutcomePtr outcome; ///< may be null (not yet partitioned, or failed)
    std::vector<CheckpointPolicy> tags; ///< per node: the tag in force (the user's, else the file's)
    std::vector<char> userTagged; ///< per node: the user set (or cleared) it
    std::vector<GroupStats> groupStats; ///< per group
    std::vector<Highlight> itemHighlight; ///< per view item
    bool compareWithReference = true; ///< the user's choice (View menu)
    /// Whether nodes are marked against PyTorch's recorded decision: asked for, a decision
    /// recorded for this plan's options, and no two plans compared. Without a record, every
    /// saved node "differed" and carried the yellow corner.
    bool showsReference() const { return showsReference(outcome.get()); }
    bool showsReference(const PartitionOutcome* with) const
    {
        return compareWithReference && with && !with->referenceKey.isEmpty() && planComparison.empty();
    }
    /// Two plans compared (the Compare dock), per node: what the plans save. Empty when off.
    enum PlanSide : std::uint8_t { InNeither = 0, OnlyA = 1, OnlyB = 2, InBoth = 3 };
    std::vector<std::uint8_t> planComparison;
    bool comparingPlans() const { return !planComparison.empty(); }
    PlanSide planSide(NodeId n) const
    {
        return planComparison.empty() ? InNeither
                                      : static_cast<PlanSide>(planComparison[static_cast<std::size_t>(n)]);
    }
    /// The device split (the Devices dock), per node: its partition, or -1. Empty when off.
    std::vector<int> devicePartition;
    bool showingDevices() const { return !devicePartition.empty(); }
    int devicePartitionOf(NodeId n) const
    {
        return static_cast<std::size_t>(n) < devicePartition.size()
            ? devicePartition[static_cast<std::size_t>(n)]
            : -1;
    }
    /// Nodes the what-if changed, flashed on the canvas for a moment. Empty when none.
    std::vector<char> flashing;
    bool isFlashing(NodeId n) const
    {
        return !flashing.empty() && flashing[static_cast<std::size_t>(n)] != 0;
    }

    std::uint16_t flags(NodeId n) const { return outcome ? outcome->flagsOf(n) : 0; }
    CheckpointPolicy tag(NodeId n) const
    {
        return tags.empty() ? CheckpointPolicy::None : tags[static_cast<std::size_t>(n)];
    }
    Highlight highlightOf(int item) const
    {
        return static_cast<std::size_t>(item) < itemHighlight.size()
            ? itemHighlight[static_cast<std::size_t>(item)]
            : Highlight::None;
    }
    bool anyHighlight = false;

    /// Recomputes groupStats from outcome and tags.
    void updateGroupStats();
};

} // namespace remat::ui
