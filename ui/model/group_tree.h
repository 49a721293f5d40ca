// SPDX-License-Identifier: MIT
#pragma once

#include "graph/arg.h"
#include "model/graph_regions.h"

#include <QString>

#include <vector>

namespace remat::ui {

/// A collapsible set of nodes: a module, one repetition of a block, or a range of blocks.
struct Group {
    QString label; ///< "block 12", "∇ block 12", "blocks 0–11", "prologue"
    Side side = Side::Forward;
    int parent = -1;
    std::vector<int> children; ///< sub-groups, in display order
    std::vector<NodeId> members; ///< every node inside (sub-groups included), in graph order
};

/// Groups of a large graph, nested (ranges of blocks contain blocks contain nodes).
struct GroupTree {
    std::vector<Group> groups;
    std::vector<int> roots; ///< top-level groups
    std::vector<int> leafOf; ///< per node: the innermost group holding it, -1 for none
    std::vector<int> partner; ///< per group: its other half ("block 3" <-> "∇ block 3"), or -1
    QString method; ///< how the groups were found, for the status line

    bool empty() const { return groups.empty(); }
    const Group& group(int g) const { return groups[static_cast<std::size_t>(g)]; }
    int leafGroup(NodeId n) const { return leafOf.empty() ? -1 : leafOf[static_cast<std::size_t>(n)]; }
    int partnerOf(int g) const
    {
        return static_cast<std::size_t>(g) < partner.size() ? partner[static_cast<std::size_t>(g)] : -1;
    }
    /// Groups holding `n`, outermost first.
    std::vector<int> ancestry(NodeId n) const;
    int depth(int g) const;
};

} // namespace remat::ui
