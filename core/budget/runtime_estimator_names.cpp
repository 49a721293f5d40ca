// SPDX-License-Identifier: MIT
// The estimators' names, apart from the estimators: a project file or a plan names its estimator
// without needing the cost model (the project-file fuzz target links only these).
#include "budget/runtime_estimator.h"

namespace remat {

std::string_view estimatorName(RuntimeEstimatorKind kind)
{
    switch (kind) {
    case RuntimeEstimatorKind::Flops:
        return "flops";
    case RuntimeEstimatorKind::Testing:
        return "testing";
    case RuntimeEstimatorKind::Roofline:
        return "roofline";
    }
    return "flops";
}

std::optional<RuntimeEstimatorKind> parseEstimator(std::string_view name)
{
    for (auto kind :
        {RuntimeEstimatorKind::Flops, RuntimeEstimatorKind::Testing, RuntimeEstimatorKind::Roofline}) {
        if (estimatorName(kind) == name)
            return kind;
    }
    return std::nullopt;
}

} // namespace remat
