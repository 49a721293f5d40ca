// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <string_view>

namespace remat {

/// A cost in the runtime estimator's unit, as the command line and the app print it: SI prefixes
/// for FLOP ("289 FLOP", "524.3 kFLOP", "8.523 GFLOP": a pointwise op counts 1, a matmul
/// billions), milliseconds up to a second and seconds beyond ("12.5 ms", "12.35 s"), whole nodes.
std::string runtimeText(double value, std::string_view unit);

} // namespace remat
