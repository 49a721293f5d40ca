// SPDX-License-Identifier: MIT
#pragma once

#include "partition/work_graph.h"

#include <vector>

namespace remat {

class OpCategories;

/// fx_graph_cse as the min-cut partitioner runs it: a call_function whose target, args and kwargs
/// (after substituting nodes already merged) equal an earlier node's is merged into that node.
/// Python's equality and hashing are followed, including their quirks (1 == 1.0 == True; only the
/// FIRST node with a given hash is ever compared, so a hash collision such as hash(-1) == hash(-2)
/// blocks later merges). torch 2.14 also keys each scalar by its type (0 and 0.0 stay apart) and
/// never merges a node the backward outputs need with one they do not. Returns, per node, kNoNode
/// or the node it merges into.
std::vector<NodeId> findCommonSubexpressions(const WorkGraph& graph, const OpCategories& ops);

} // namespace remat
