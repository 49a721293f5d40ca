// SPDX-License-Identifier: MIT
#pragma once

#include "graph/joint_graph.h"

namespace remat {

// Placeholders are classified by substrings of their target, as PyTorch's _is_primal etc. do.

inline bool targetContains(const JointGraph& g, NodeId n, std::string_view part)
{
    return g.opOf(n).target.find(part) != std::string::npos;
}
inline bool isPlaceholder(const JointGraph& g, NodeId n)
{
    return g.node(n).op == NodeOp::Placeholder;
}
inline bool isTangent(const JointGraph& g, NodeId n)
{
    return isPlaceholder(g, n) && targetContains(g, n, "tangents");
}
inline bool isFwdSeedOffset(const JointGraph& g, NodeId n)
{
    return isPlaceholder(g, n)
        && (targetContains(g, n, "fwd_seed") || targetContains(g, n, "fwd_base_offset"));
}
inline bool isBwdSeedOffset(const JointGraph& g, NodeId n)
{
    return isPlaceholder(g, n)
        && (targetContains(g, n, "bwd_seed") || targetContains(g, n, "bwd_base_offset"));
}
/// torch 1.13: any placeholder that is not a tangent. Newest: also not an RNG seed/offset.
inline bool isPrimal113(const JointGraph& g, NodeId n)
{
    return isPlaceholder(g, n) && !targetContains(g, n, "tangents");
}
inline bool isPrimalNewest(const JointGraph& g, NodeId n)
{
    return isPlaceholder(g, n) && !isTangent(g, n) && !isFwdSeedOffset(g, n) && !isBwdSeedOffset(g, n);
}

} // namespace remat
