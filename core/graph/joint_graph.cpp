// SPDX-License-Identifier: MIT
#include "graph/joint_graph.h"

namespace remat {

NodeId JointGraph::find(std::string_view name) const
{
    return m_byName.find(name, m_nodes);
}

std::optional<OpId> JointGraph::findOp(std::string_view target) const
{
    const auto it = m_opByTarget.find(target);
    if (it == m_opByTarget.end())
        return std::nullopt;
    return it->second;
}

const RecordedPartition* JointGraph::recordedPartition(const std::string& key) const
{
    const auto it = m_recorded.find(key);
    return it == m_recorded.end() ? nullptr : &it->second;
}

} // namespace remat
