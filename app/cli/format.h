// SPDX-License-Identifier: MIT
#pragma once

#include "graph/joint_graph.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace remat::cli {

/// "869.5 MiB", "716.0 KiB", "12 B".
std::string formatBytes(std::int64_t bytes);
/// "31.6 ms", "6.93 s", "412 µs".
std::string formatSeconds(double seconds);
/// A cost in the runtime estimator's unit ("flops", "ms" or "nodes"): "3.4 GFLOP", "12.5 ms", "17 nodes".
std::string formatRuntime(double value, std::string_view unit);
/// A change in bytes: "+716.0 KiB", "-12 B", and "±0 B" as the app writes it.
std::string formatBytesDelta(std::int64_t delta);
/// A change in the estimator's unit: "+1 FLOP", "-3.2 ms", and "±0".
std::string formatRuntimeDelta(double delta, std::string_view unit);
/// Right-pads to `width`.
std::string pad(const std::string& text, std::size_t width);

/// "; 7 SymInts" after a plan's saved values under dynamic shapes (passed to the backward beside
/// them), else "".
std::string savedSymIntsText(std::size_t count);
/// The "RNG states" summary line for savedRngStateOps (names the first three), or "" for none.
std::string rngStatesLine(const JointGraph& graph, const std::vector<NodeId>& ops, std::size_t labelWidth);
/// The node at the memory peak, or "no node" when the timeline is empty (nothing ran).
std::string peakNodeName(const JointGraph& graph, NodeId node);

} // namespace remat::cli
