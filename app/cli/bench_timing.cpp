// SPDX-License-Identifier: MIT
#include "cli/bench_timing.h"

#include <algorithm>

namespace remat::cli {

double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

RuleSet rulesOfRecording(const JointGraph& graph)
{
    return graph.recordedTorchVersion().starts_with("2.") ? RuleSet::Torch214 : RuleSet::Torch113;
}

} // namespace remat::cli
