// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/plan_analyst.h"

#include <QString>

namespace remat::ui {

/// The inspector's "What if" and "In the cut" sections for one analysed node, as HTML: the flip
/// and its deltas (with a link "apply:" that applies the tag), or why the node cannot flip; its save
/// edge and the capacities around it, or its rank in the knapsack. Units on every number and links
/// "glossary:<topic>" to the guide.
QString whatIfReport(const LoadedGraph& graph, const NodeAnalysis& analysis);

} // namespace remat::ui
