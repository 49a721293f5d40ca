// SPDX-License-Identifier: MIT
#include "devices/device_config.h"

#include <array>
#include <utility>

namespace remat::devices {
namespace {

constexpr std::array<std::pair<PartitionMode, std::string_view>, 5> kModeNames {{
    {PartitionMode::SizeBased, "size_based"},
    {PartitionMode::SparseNn, "sparse_nn"},
    {PartitionMode::CostAware, "cost_aware"},
    {PartitionMode::KlBased, "kl_based"},
    {PartitionMode::AotBased, "aot_based"},
}};

} // namespace

std::string_view partitionModeName(PartitionMode mode)
{
    for (const auto& [value, name] : kModeNames) {
        if (value == mode)
            return name;
    }
    return "size_based";
}

std::optional<PartitionMode> parsePartitionMode(std::string_view name)
{
    for (const auto& [value, text] : kModeNames) {
        if (text == name)
            return value;
    }
    return std::nullopt;
}

} // namespace remat::devices
