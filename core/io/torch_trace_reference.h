// SPDX-License-Identifier: MIT
#pragma once

#include "graph/error.h"
#include "graph/joint_graph.h"
#include "io/torch_trace_log.h"

#include <string>

namespace remat::trace {

/// The log's forward and backward graphs read, but do not fit its joint graph: PyTorch changed
/// the graph between logging and partitioning it.
class DecisionMismatch : public Error {
public:
    using Error::Error;
};

/// A TORCH_TRACE payload as the printed reader takes it.
printed::GraphText payloadGraph(const TraceArtifact& artifact, const std::string& title);

/// PyTorch's decision for one compilation, from its aot_forward_graph and aot_backward_graph:
/// the saved values are the backward graph's inputs that are neither tangents nor RNG seeds
/// (2.14's _extract_fwd_bwd_modules makes them placeholders named after the joint-graph nodes,
/// which the forward graph returns under the same names), in joint-graph order; SymInt inputs go
/// to savedSymNodes, and the RNG states of recomputed random ops (rng_state_output_<k>) are counted
/// in savedRngStates. Each one must be a forward output and a joint-graph node of the same op,
/// else DecisionMismatch("<file>:<line>: ...") says which; unreadable graphs throw remat::Error.
RecordedPartition recordedDecision(
    const JointGraph& joint, const TracedCompile& compile, const std::string& file);

} // namespace remat::trace
