// SPDX-License-Identifier: MIT
#include "model/policy_names.h"

namespace remat::ui {

const char* policyName(CheckpointPolicy policy)
{
    switch (policy) {
    case CheckpointPolicy::MustSave:
        return "MUST_SAVE";
    case CheckpointPolicy::PreferSave:
        return "PREFER_SAVE";
    case CheckpointPolicy::MustRecompute:
        return "MUST_RECOMPUTE";
    case CheckpointPolicy::PreferRecompute:
        return "PREFER_RECOMPUTE";
    case CheckpointPolicy::MustCpuOffload:
        return "MUST_CPU_OFFLOAD";
    case CheckpointPolicy::PreferCpuOffload:
        return "PREFER_CPU_OFFLOAD";
    case CheckpointPolicy::None:
        return "NONE";
    }
    return "NONE";
}

std::optional<CheckpointPolicy> parsePolicy(const QString& name)
{
    for (auto p : {CheckpointPolicy::None, CheckpointPolicy::MustSave, CheckpointPolicy::PreferSave,
             CheckpointPolicy::MustRecompute, CheckpointPolicy::PreferRecompute,
             CheckpointPolicy::MustCpuOffload, CheckpointPolicy::PreferCpuOffload}) {
        if (name.compare(QLatin1String(policyName(p)), Qt::CaseInsensitive) == 0)
            return p;
    }
    return std::nullopt;
}

} // namespace remat::ui
