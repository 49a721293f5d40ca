// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/rule_set.h"
#include "graph/node.h"

#include <cstdint>

namespace remat {

/// Bytes of a node's value as the partitioner's `_size_of` counts them.
/// torch 1.13: single tensors only, ten dtypes (others throw remat::Error as 1.13 raises).
/// Newest: numel x itemsize, summed over the tensors of a list; no value counts 0.
std::int64_t partitionerSizeOf(const Node& node, RuleSet rules);

/// numel x itemsize over every tensor the node produces: what the user sees as its size.
std::int64_t valueBytes(const Node& node);

} // namespace remat
