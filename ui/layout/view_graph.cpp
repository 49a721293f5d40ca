// SPDX-License-Identifier: MIT
#include "layout/view_graph.h"

#include "canvas/canvas_metrics.h"
#include "layout/graphviz_layout.h"

#include <unordered_map>
#include <unordered_set>

namespace remat::ui {
namespace {

EdgeRole roleFor(Side from, Side to)
{
    if (from == Side::Forward && to == Side::Forward)
        return EdgeRole::Down;
    if (from == Side::Backward && to == Side::Backward)
        return EdgeRole::Up;
    return EdgeRole::Across;
}

} // namespace

ViewGraph buildViewGraph(const LoadedGraph& loaded, const std::vector<char>& expanded)
{
    const JointGraph& graph = loaded.graph;
    const GroupTree& tree = loaded.groups;
    ViewGraph view;
    view.itemOfNode.assign(graph.size(), -1);
    view.itemOfGroup.assign(tree.groups.size(), -1);
    view.clusterOfGroup.assign(tree.groups.size(), -1);
    auto isExpanded = [&](int g) {
        return static_cast<std::size_t>(g) < expanded.size() && expanded[static_cast<std::size_t>(g)];
    };

    // Frames for expanded groups whose ancestors are all expanded, outermost first.
    std::vector<int> order;
    for (int r : tree.roots)
        order.push_back(r);
    for (std::size_t i = 0; i < order.size(); ++i) {
        const int g = order[i];
        if (!isExpanded(g))
            continue;
        const int parentGroup = tree.group(g).parent;
        view.clusterOfGroup[static_cast<std::size_t>(g)] = static_cast<int>(view.clusters.size());
        view.clusters.push_back(
            {g, parentGroup >= 0 ? view.clusterOfGroup[static_cast<std::size_t>(parentGroup)] : -1});
        for (int c : tree.group(g).children)
            order.push_back(c);
    }

    // The outermost collapsed group stands for a node, else the node shows itself inside the
    // innermost frame; both depend only on the node's leaf group, so they are found once per group.
    struct Placement {
        int shownAs = -1;
        int cluster = -1;
    };
    std::vector<Placement> placementOf(tree.groups.size());
    std::vector<char> placed(tree.groups.size(), 0);
    std::vector<int> chain; // a leaf group and its ancestors, innermost first
    auto placementFor = [&](int leaf) {
        if (!placed[static_cast<std::size_t>(leaf)]) {
            chain.clear();
            for (int g = leaf; g >= 0; g = tree.group(g).parent)
                chain.push_back(g);
            Placement p;
            for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
                if (!isExpanded(*it)) {
                    p.shownAs = *it;
                    break;
                }
                p.cluster = view.clusterOfGroup[static_cast<std::size_t>(*it)];
            }
            placementOf[static_cast<std::size_t>(leaf)] = p;
            placed[static_cast<std::size_t>(leaf)] = 1;
        }
        return placementOf[static_cast<std::size_t>(leaf)];
    };

    for (std::size_t i = 0; i < graph.size(); ++i) {
        const auto n = static_cast<NodeId>(i);
        if (loaded.region(n) == Region::Output)
            continue;
        const int leaf = tree.empty() ? -1 : tree.leafGroup(n);
        const Placement p = leaf >= 0 ? placementFor(leaf) : Placement {};
        const int shownAs = p.shownAs;
        const int cluster = p.cluster;
        if (shownAs >= 0) {
            int& item = view.itemOfGroup[static_cast<std::size_t>(shownAs)];
            if (item < 0) {
                item = static_cast<int>(view.items.size());
                view.items.push_back({true, shownAs, tree.group(shownAs).side, cluster});
            }
            view.itemOfNode[i] = item;
        } else {
            view.itemOfNode[i] = static_cast<int>(view.items.size());
            view.items.push_back({false, n, loaded.regions.sideOf(n), cluster});
        }
    }

    std::unordered_map<std::uint64_t, int> edgeIndex;
    // (edge, producer) pairs already listed: an edge between two collapsed groups can stand for
    // thousands of producers, too many to search its list for each graph edge.
    std::unordered_set<std::uint64_t> listedSources;
    for (std::size_t i = 0; i < graph.size(); ++i) {
        const int to = view.itemOfNode[i];
        if (to < 0)
            continue;
        for (NodeId u : graph.node(static_cast<NodeId>(i)).inputs) {
            const int from = view.itemOfNode[static_cast<std::size_t>(u)];
            if (from < 0 || from == to)
                continue;
            const std::uint64_t key
                = (static_cast<std::uint64_t>(from) << 32) | static_cast<std::uint32_t>(to);
            auto [it, inserted] = edgeIndex.try_emplace(key, static_cast<int>(view.edges.size()));
            if (inserted) {
                const auto& a = view.items[static_cast<std::size_t>(from)];
                const auto& b = view.items[static_cast<std::size_t>(to)];
                view.edges.push_back({from, to, roleFor(a.side, b.side), {}, 0});
            }
            ViewEdge& e = view.edges[static_cast<std::size_t>(it->second)];
            ++e.count;
            const std::uint64_t listed
                = (static_cast<std::uint64_t>(it->second) << 32) | static_cast<std::uint32_t>(u);
            if (listedSources.insert(listed).second)
                e.sources.push_back(u);
        }
    }
    return view;
}

LayoutRequest layoutRequestFor(const LoadedGraph& loaded, const ViewGraph& view)
{
    LayoutRequest request;
    for (const ViewCluster& c : view.clusters)
        request.clusters.push_back({c.parent, CanvasMetrics::kClusterHeader, true});
    // Two invisible clusters after the frames hold each side together, so that dot draws the
    // backward as one arm beside the forward instead of spreading it around both sides. Like
    // frames, they are too slow on big pictures, which rely on the reversed edges alone.
    bool sides[2] = {false, false};
    for (const ViewItem& item : view.items)
        sides[static_cast<int>(item.side)] = true;
    int sideCluster[2] = {-1, -1};
    if (sides[0] && sides[1] && view.items.size() <= kFramedUpTo) {
        for (int s = 0; s < 2; ++s) {
            sideCluster[s] = static_cast<int>(request.clusters.size());
            request.clusters.push_back({-1, 0, false});
        }
        for (std::size_t c = 0; c < view.clusters.size(); ++c) {
            if (view.clusters[c].parent < 0) {
                const Side side = loaded.groups.group(view.clusters[c].group).side;
                request.clusters[c].parent = sideCluster[static_cast<int>(side)];
            }
        }
    }
    request.boxes.reserve(view.items.size());
    for (const ViewItem& item : view.items) {
        const QSizeF size = item.isGroup ? CanvasMetrics::groupSize()
                                         : loaded.boxSizes.size(item.id, loaded.size(),
                                             [&] { return CanvasMetrics::nodeSize(loaded.label(item.id)); });
        const int cluster = item.cluster >= 0 ? item.cluster : sideCluster[static_cast<int>(item.side)];
        request.boxes.push_back({size.width(), size.height(), cluster});
    }
    request.links.reserve(view.edges.size());
    for (const ViewEdge& e : view.edges)
        request.links.push_back({e.from, e.to, e.role});
    return request;
}

} // namespace remat::ui
