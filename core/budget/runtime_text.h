// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <string_view>

namespace remat {

/// A cost in the runtime estimator's unit, as the command line and the app print it: SI prefixes
/// for FLOP ("289 FLOP", "524.3 kFLOP", "8.523 GFLOP": a pointwise op counts 1, a matmul
/// billions), milliseconds up to a second and seconds beyond ("12.5 ms", "12.35 s"), whole nodes.
std::string runtimeText(double value, std::string_view unit);

/// What a change in recomputed ops without a FLOP formula adds to a FLOP delta: PyTorch's flops
/// estimator counts each such op (pointwise, view, reduction) as 1, so "+5 FLOP" is five more
/// recomputed pointwise ops, not five multiply-adds. "5 more recomputed ops without a FLOP formula,
/// which PyTorch's flops estimator counts as 1 FLOP each"; empty when `flooredOpsDelta` is 0 or the
/// unit is not "flops".
std::string flooredOpsNote(int flooredOpsDelta, std::string_view unit);

} // namespace remat
