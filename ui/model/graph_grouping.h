// SPDX-License-Identifier: MIT
#pragma once

#include "model/group_tree.h"

namespace remat::ui {

struct GroupingOptions {
    int minNodes = 300; ///< smaller graphs are shown whole, without groups
    int chunkTarget = 120; ///< size of the chunks a graph without repeats is cut into
    int maxLeaf = 400; ///< larger groups are cut into chunks
    int maxBlocks = 16; ///< more repeated blocks than this are gathered into ranges
};

/// Groups a joint graph for the summary view, forward and backward separately: one group per
/// repetition of a repeated block (found from the op sequence, so it works without module info),
/// else per top-level module (nn_module_stack), else chunks cut where few edges cross. Groups are
/// named after their module when the graph has module info; backward groups after the forward
/// group whose values they consume ("∇ block 3"). Inputs join the group of their first user.
GroupTree groupGraph(
    const JointGraph& graph, const GraphRegions& regions, const GroupingOptions& options = {});

} // namespace remat::ui
