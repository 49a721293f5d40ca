// SPDX-License-Identifier: MIT
#pragma once

#include "teaching/min_cut_lesson.h"

#include <QString>

namespace remat::ui {

struct LoadedGraph;

/// The flow network of a lesson as Graphviz DOT. The vertices that must be computed in the
/// backward (an infinite edge to the sink and no other edge out) are drawn inside the sink; a
/// network far wider than deep (every value recomputed, dozens of weights) runs left to right.
struct NetworkPicture {
    QString dot;
    int foldedNodes = 0; ///< nodes drawn inside the sink
};

/// `withCut`: the vertices filled by their side of the minimum cut, its edges in red.
NetworkPicture drawNetwork(const LoadedGraph& graph, const MinCutLesson& lesson, bool withCut);

/// The sentence that says what the picture leaves out, or nothing.
QString foldedNodesText(const NetworkPicture& picture);

} // namespace remat::ui
