// SPDX-License-Identifier: MIT
#include "partition/partition_result.h"

#include <algorithm>

namespace remat {

bool PartitionResult::isSaved(NodeId n) const
{
    return std::find(savedValues.begin(), savedValues.end(), n) != savedValues.end()
        || std::find(savedSymNodes.begin(), savedSymNodes.end(), n) != savedSymNodes.end();
}

bool PartitionResult::isOffloaded(NodeId n) const
{
    return std::binary_search(offloaded.begin(), offloaded.end(), n);
}

const BannedNode* PartitionResult::banReason(NodeId n) const
{
    const auto it
        = std::find_if(banned.begin(), banned.end(), [n](const BannedNode& b) { return b.node == n; });
    return it == banned.end() ? nullptr : &*it;
}

} // namespace remat
