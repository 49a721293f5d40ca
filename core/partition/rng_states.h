// SPDX-License-Identifier: MIT
#pragma once

#include "graph/joint_graph.h"

#include <cstdint>
#include <vector>

namespace remat {

struct PartitionResult;

/// The bytes of one saved RNG state: torch.get_rng_state(), the CPU generator's 5056-byte uint8
/// tensor, which 2.14's get_sample_rng_state takes for every device but CUDA.
constexpr std::int64_t kCpuRngStateBytes = 5056;

/// 2.14's is_rng_op: an op tagged nondeterministic_seeded, except an attention op whose
/// dropout_p is statically 0 (is_nonzero_dropout_sdpa).
bool isRngOp(const JointGraph& graph, NodeId n);

/// The random ops whose RNG state 2.14's functionalize_rng_ops saves for the backward, in graph
/// order: recomputed ops (in both graphs) tagged MUST_RECOMPUTE or PREFER_RECOMPUTE. The forward
/// runs each through run_and_save_rng_state and returns the state; the backward replays the op
/// with it (run_with_rng_state), so the recomputed dropout draws the same mask. Ops on CUDA are
/// left out: there 2.14 passes a generator to each graph (graph-safe mode) and saves nothing.
/// Empty under the torch 1.13 rules, which have neither tags nor this pass.
std::vector<NodeId> savedRngStateOps(const JointGraph& graph, const PartitionResult& result);

} // namespace remat
