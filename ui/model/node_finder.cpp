// SPDX-License-Identifier: MIT
#include "model/node_finder.h"

#include <algorithm>

namespace remat::ui {

std::vector<NodeId> findNodes(const LoadedGraph& graph, const QString& text)
{
    const QString needle = text.trimmed();
    if (needle.isEmpty())
        return {};
    std::vector<std::pair<int, NodeId>> ranked;
    for (std::size_t i = 0; i < graph.size(); ++i) {
        const auto n = static_cast<NodeId>(i);
        if (graph.region(n) == Region::Output)
            continue;
        const NodeLabel& label = graph.label(n);
        // An input's name in the model (its op label) is a name too: "x" finds the input x first.
        const bool namedInput = !graph.graph.node(n).meta.source->inputName.empty();
        const auto matches = [&](auto test) { return test(label.name) || (namedInput && test(label.op)); };
        int rank = -1;
        if (matches([&](const QString& s) { return s.compare(needle, Qt::CaseInsensitive) == 0; }))
            rank = 0;
        else if (matches([&](const QString& s) { return s.startsWith(needle, Qt::CaseInsensitive); }))
            rank = 1;
        else if (matches([&](const QString& s) { return s.contains(needle, Qt::CaseInsensitive); }))
            rank = 2;
        else if (label.op.contains(needle, Qt::CaseInsensitive))
            rank = 3;
        if (rank >= 0)
            ranked.emplace_back(rank, n);
    }
    std::stable_sort(
        ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<NodeId> result;
    result.reserve(ranked.size());
    for (const auto& r : ranked)
        result.push_back(r.second);
    return result;
}

} // namespace remat::ui
