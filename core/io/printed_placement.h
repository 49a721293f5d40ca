// SPDX-License-Identifier: MIT
#pragma once

#include "graph/joint_graph_builder.h"

#include <vector>

namespace remat::printed {

/// The partitioner tags a printed joint graph leaves out. PyTorch 2.x tags every node it traced
/// for the forward (primals included) "is_forward" and every node the backward traced
/// "is_backward" (meta["partitioner_tag"]); its default partition saves by that placement, and a
/// mutable op tagged "is_backward" must stay in the backward. print_readable does not print the
/// tag, so it is inferred: the backward starts at the first node that reads a tangent, or earlier,
/// at the first node print_readable marks "Backward of forward node:" (autograd_backward). Nodes
/// before it are the forward's, in the order they were traced. After it, a node that reads a
/// tangent or has that mark is the backward's; any other stays untagged (the input mutations
/// applied at the end print no stack trace). A backward node that reads no tangent and has no
/// stack trace, ahead of both marks, would be taken for a forward one.
/// `nodes` are the graph's nodes in order, their args in `builder`'s pool; leaves a graph that
/// has tags of its own, or no tangents, as it is.
void inferPartitionerTags(std::vector<Node>& nodes, JointGraphBuilder& builder);

} // namespace remat::printed
