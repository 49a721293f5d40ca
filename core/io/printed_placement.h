// SPDX-License-Identifier: MIT
#pragma once

#include "graph/joint_graph_builder.h"

#include <vector>

namespace remat::printed {

/// The partitioner tags a printed joint graph leaves out. PyTorch 2.x tags every node it traced
/// for the forward (primals included) "is_forward" and every node the backward traced
/// "is_backward" (meta["partitioner_tag"]); its default partition saves by that placement, and a
/// mutable op tagged "is_backward" must stay in the backward. print_readable does not print the
/// tag, so it is inferred. The backward starts at the earliest of: the first node that reads a
/// tangent; the first node print_readable marks "Backward of forward node:" (autograd_backward);
/// and the first node after the forward's outputs that is not one of its getitems or detaches
/// (a print without stack traces: the transpose of a weight a matmul's gradient needs reads no
/// tangent). Nodes before it are the forward's, in the order they were traced. After it, a node
/// that reads a tangent, has that mark or starts the backward is the backward's; any other stays
/// untagged (the input mutations applied at the end print no stack trace). The rule, run in Python
/// on the tags of 78 graphs PyTorch 2.14 traced (../shared/oracle/torch2, tests/data), ends the
/// forward where 2.14 did in each; tst_printeddumps_torch214 checks it on real 2.14 prints.
/// `nodes` are the graph's nodes in order, their args in `builder`'s pool, the output node last;
/// its first `numFwdOutputs` values are the forward's. Leaves a graph that has tags of its own,
/// or no tangents, as it is.
void inferPartitionerTags(std::vector<Node>& nodes, JointGraphBuilder& builder, int numFwdOutputs);

} // namespace remat::printed
