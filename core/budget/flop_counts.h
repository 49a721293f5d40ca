// SPDX-License-Identifier: MIT
#pragma once

#include "graph/joint_graph.h"

#include <cstdint>
#include <optional>

namespace remat {

/// FLOPs of one node as torch.utils.flop_counter's registry counts them (matmuls, convolutions and
/// their backward, scaled-dot-product / flash / efficient attention forward and backward), from the
/// shapes in the graph. nullopt when the op has no registered formula: FlopCounterMode counts it as
/// 0, and PyTorch's "flops" runtime estimator as 1.
std::optional<std::int64_t> registeredFlops(const JointGraph& graph, NodeId n);

} // namespace remat
