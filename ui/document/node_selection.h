// SPDX-License-Identifier: MIT
#pragma once

#include "graph/arg.h"

#include <QObject>

#include <vector>

namespace remat::ui {

/// What the user selected, shared by the canvas, the inspector and the tables. Nodes and
/// collapsed groups can both be selected; `current` is the one the inspector shows.
class NodeSelection : public QObject {
    Q_OBJECT
public:
    enum class Origin { Canvas, Table, Search, Program };
    Q_ENUM(Origin)

    using QObject::QObject;

    void select(std::vector<NodeId> nodes, std::vector<int> groups, Origin origin);
    void selectNode(NodeId node, Origin origin) { select({node}, {}, origin); }
    void clear(Origin origin) { select({}, {}, origin); }

    const std::vector<NodeId>& nodes() const { return m_nodes; }
    const std::vector<int>& groups() const { return m_groups; }
    /// The node the inspector shows: the first selected node, or kNoNode.
    NodeId currentNode() const { return m_nodes.empty() ? kNoNode : m_nodes.front(); }
    int currentGroup() const { return m_nodes.empty() && !m_groups.empty() ? m_groups.front() : -1; }
    bool isEmpty() const { return m_nodes.empty() && m_groups.empty(); }

Q_SIGNALS:
    void changed(remat::ui::NodeSelection::Origin origin);

private:
    std::vector<NodeId> m_nodes;
    std::vector<int> m_groups;
};

} // namespace remat::ui
