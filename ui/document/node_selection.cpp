// SPDX-License-Identifier: MIT
#include "document/node_selection.h"

namespace remat::ui {

void NodeSelection::select(std::vector<NodeId> nodes, std::vector<int> groups, Origin origin)
{
    if (nodes == m_nodes && groups == m_groups)
        return;
    m_nodes = std::move(nodes);
    m_groups = std::move(groups);
    Q_EMIT changed(origin);
}

} // namespace remat::ui
