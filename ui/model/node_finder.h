// SPDX-License-Identifier: MIT
#pragma once

#include "model/loaded_graph.h"

#include <vector>

namespace remat::ui {

/// Nodes whose name or op contains `text` (case-insensitive), best first: the exact name, then
/// names starting with it, then names containing it, then op matches; graph order within each.
std::vector<NodeId> findNodes(const LoadedGraph& graph, const QString& text);

} // namespace remat::ui
