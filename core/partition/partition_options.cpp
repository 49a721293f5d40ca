// SPDX-License-Identifier: MIT
#include "partition/partition_options.h"

namespace remat {

std::string_view partitionerName(PartitionerKind kind)
{
    return kind == PartitionerKind::Default ? "default" : "min-cut";
}

std::optional<PartitionerKind> parsePartitioner(std::string_view name)
{
    if (name == "default")
        return PartitionerKind::Default;
    if (name == "min-cut" || name == "mincut" || name == "min_cut")
        return PartitionerKind::MinCut;
    return std::nullopt;
}

} // namespace remat
