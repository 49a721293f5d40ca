// SPDX-License-Identifier: MIT
#include "layout/composed_layout.h"

#include "layout/edge_shapes.h"

#include <QCryptographicHash>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <unordered_map>

namespace remat::ui {
namespace {

constexpr double kFrameMargin = 10; // around a frame's members, as dot's cluster margin
constexpr double kRowGap = 28; // between rows, below the outermost frames
constexpr double kArmGap = 180; // between the forward and backward arms: room for the saves' curves
constexpr double kColumnGap = 120; // between columns of tiles
constexpr double kAspect = 1.6; // width / height the columns aim for, a screen's

std::size_t at(int i)
{
    return static_cast<std::size_t>(i);
}

/// A unit: the boxes directly in one frame, or the loose boxes of one side. A box whose own side
/// differs from its frame's (an input living with its first user) stays in its frame's unit.
std::uint64_t unitKey(const ViewItem& item)
{
    return item.cluster >= 0 ? static_cast<std::uint64_t>(item.cluster + 1) << 1
                             : static_cast<std::uint64_t>(item.side);
}

int firstNodeOf(const LoadedGraph& graph, const ViewItem& item)
{
    if (!item.isGroup)
        return item.id;
    const auto& members = graph.groups.group(item.id).members;
    return members.empty() ? 0 : members.front();
}

/// A unit's part of the request, and a digest of its shape (sizes of boxes aside from width,
/// links) so that identical blocks find each other.
struct Part {
    LayoutRequest request;
    QByteArray shape;
    std::vector<int> links; ///< the whole request's link behind each of the part's links
};

Part partOf(const LayoutRequest& whole, const std::vector<int>& items, const std::vector<int>& localOf,
    const std::vector<std::vector<int>>& linksOfItem)
{
    Part part;
    QCryptographicHash hash(QCryptographicHash::Sha1);
    auto add = [&hash](auto value) {
        hash.addData(QByteArrayView(reinterpret_cast<const char*>(&value), sizeof(value)));
    };
    for (int i : items) {
        const LayoutBox& b = whole.boxes[at(i)];
        part.request.boxes.push_back({b.width, b.height, -1});
        add(b.height);
    }
    for (int i : items) {
        for (int l : linksOfItem[at(i)]) {
            const LayoutLink& link = whole.links[at(l)];
            const int to = localOf[at(link.to)];
            if (link.from != i || to < 0)
                continue;
            part.request.links.push_back({localOf[at(i)], to, link.role});
            part.links.push_back(l);
            add(localOf[at(i)]);
            add(to);
            add(link.role);
        }
    }
    add(items.size());
    part.shape = hash.result();
    return part;
}

} // namespace

bool shouldCompose(const ViewGraph& view)
{
    return view.items.size() > kComposeFrom && !view.clusters.empty();
}

ComposedPlan planComposedLayout(const LoadedGraph& graph, const ViewGraph& view, const LayoutRequest& whole)
{
    ComposedPlan plan;
    std::unordered_map<std::uint64_t, int> unitOf;
    std::vector<int> unitOfItem(view.items.size());
    for (std::size_t i = 0; i < view.items.size(); ++i) {
        const ViewItem& item = view.items[i];
        auto [it, inserted] = unitOf.try_emplace(unitKey(item), static_cast<int>(plan.units.size()));
        if (inserted) {
            ComposedPlan::Unit unit;
            unit.side = item.cluster >= 0 ? graph.groups.group(view.clusters[at(item.cluster)].group).side
                                          : item.side;
            unit.position = firstNodeOf(graph, item);
            plan.units.push_back(unit);
        }
        ComposedPlan::Unit& unit = plan.units[at(it->second)];
        unit.items.push_back(static_cast<int>(i));
        unit.position = std::min(unit.position, firstNodeOf(graph, item));
        unitOfItem[i] = it->second;
    }

    // Each unit's own Graphviz request; units of one shape share the first one's, widened.
    std::vector<int> localOf(view.items.size(), -1);
    for (const ComposedPlan::Unit& unit : plan.units) {
        for (std::size_t k = 0; k < unit.items.size(); ++k)
            localOf[at(unit.items[k])] = static_cast<int>(k);
    }
    std::vector<std::vector<int>> linksOfItem(view.items.size());
    for (std::size_t l = 0; l < whole.links.size(); ++l) {
        const LayoutLink& link = whole.links[l];
        if (unitOfItem[at(link.from)] == unitOfItem[at(link.to)])
            linksOfItem[at(link.from)].push_back(static_cast<int>(l));
    }
    std::map<QByteArray, int> shapeIndex;
    plan.linkInPart.assign(whole.links.size(), -1);
    for (ComposedPlan::Unit& unit : plan.units) {
        Part part = partOf(whole, unit.items, localOf, linksOfItem);
        for (std::size_t k = 0; k < part.links.size(); ++k)
            plan.linkInPart[at(part.links[k])] = static_cast<int>(k);
        auto [it, inserted] = shapeIndex.try_emplace(part.shape, static_cast<int>(plan.shapes.size()));
        if (inserted) {
            plan.shapes.push_back(std::move(part.request));
        } else {
            LayoutRequest& shared = plan.shapes[at(it->second)];
            for (std::size_t k = 0; k < shared.boxes.size(); ++k)
                shared.boxes[k].width = std::max(shared.boxes[k].width, part.request.boxes[k].width);
        }
        unit.shape = it->second;
    }

    // Rows follow the forward units in graph order; a backward unit joins the row of its forward
    // partner, else of the forward unit that sends it most values, else the last row.
    std::vector<int> forward;
    for (std::size_t u = 0; u < plan.units.size(); ++u) {
        if (plan.units[u].side == Side::Forward)
            forward.push_back(static_cast<int>(u));
    }
    std::sort(forward.begin(), forward.end(),
        [&](int a, int b) { return plan.units[at(a)].position < plan.units[at(b)].position; });
    std::unordered_map<int, int> rowOfCluster; // forward unit's frame -> row
    for (std::size_t r = 0; r < forward.size(); ++r) {
        ComposedPlan::Unit& unit = plan.units[at(forward[r])];
        unit.row = static_cast<int>(r);
        const int cluster = whole.boxes[at(unit.items.front())].cluster;
        if (cluster >= 0)
            rowOfCluster[cluster] = unit.row;
    }
    plan.rows = std::max<int>(static_cast<int>(forward.size()), 1);
    std::vector<std::map<int, int>> feeds(plan.units.size()); // backward unit -> row -> values
    for (const LayoutLink& link : whole.links) {
        const ComposedPlan::Unit& from = plan.units[at(unitOfItem[at(link.from)])];
        const int to = unitOfItem[at(link.to)];
        if (from.side == Side::Forward && plan.units[at(to)].side == Side::Backward)
            ++feeds[at(to)][from.row];
    }
    for (std::size_t u = 0; u < plan.units.size(); ++u) {
        ComposedPlan::Unit& unit = plan.units[u];
        if (unit.side != Side::Backward)
            continue;
        unit.row = plan.rows - 1;
        const int cluster = whole.boxes[at(unit.items.front())].cluster;
        const int group = cluster >= 0 ? view.clusters[at(cluster)].group : -1;
        const int partner = group >= 0 ? graph.groups.partnerOf(group) : -1;
        const int partnerFrame = partner >= 0 ? view.clusterOfGroup[at(partner)] : -1;
        if (auto it = rowOfCluster.find(partnerFrame); partnerFrame >= 0 && it != rowOfCluster.end()) {
            unit.row = it->second;
        } else if (!feeds[u].empty()) {
            unit.row = std::max_element(feeds[u].begin(), feeds[u].end(), [](const auto& a, const auto& b) {
                return a.second < b.second;
            })->first;
        }
    }
    return plan;
}

LayoutResult composeLayout(
    const ComposedPlan& plan, const LayoutRequest& whole, const std::vector<LayoutResult>& shapeLayouts)
{
    LayoutResult result;
    result.boxes.resize(whole.boxes.size());
    result.edges.resize(whole.links.size());
    result.clusters.resize(whole.clusters.size());

    // Room inside a unit for the frames around it: a title and a margin per visible frame.
    struct Room {
        double top = 0, side = 0;
    };
    auto roomFor = [&whole](const ComposedPlan::Unit& unit) {
        Room room;
        for (int c = whole.boxes[at(unit.items.front())].cluster; c >= 0; c = whole.clusters[at(c)].parent) {
            if (whole.clusters[at(c)].visible) {
                room.top += kFrameMargin + whole.clusters[at(c)].headerHeight;
                room.side += kFrameMargin;
            }
        }
        return room;
    };
    auto outerSize = [&](const ComposedPlan::Unit& unit) {
        const QRectF& inner = shapeLayouts[at(unit.shape)].bounds;
        const Room room = roomFor(unit);
        return QSizeF(inner.width() + 2 * room.side, inner.height() + room.top + room.side);
    };

    std::vector<std::vector<int>> forwardOfRow(at(plan.rows)), backwardOfRow(at(plan.rows));
    double forwardWidth = 0;
    for (std::size_t u = 0; u < plan.units.size(); ++u) {
        const ComposedPlan::Unit& unit = plan.units[u];
        (unit.side == Side::Forward ? forwardOfRow : backwardOfRow)[at(unit.row)].push_back(
            static_cast<int>(u));
        if (unit.side == Side::Forward)
            forwardWidth = std::max(forwardWidth, outerSize(unit).width());
    }
    // The backward runs upwards: within a row, what it computes first sits lowest.
    for (auto& units : backwardOfRow)
        std::sort(units.begin(), units.end(),
            [&](int a, int b) { return plan.units[at(a)].position > plan.units[at(b)].position; });
    for (auto& units : forwardOfRow)
        std::sort(units.begin(), units.end(),
            [&](int a, int b) { return plan.units[at(a)].position < plan.units[at(b)].position; });

    // A row is a tile: its forward units down the left, its backward units beside them.
    double backwardWidth = 0;
    std::vector<double> rowHeight(at(plan.rows), 0);
    for (int r = 0; r < plan.rows; ++r) {
        for (const auto* arm : {&forwardOfRow, &backwardOfRow}) {
            double height = 0;
            for (int u : (*arm)[at(r)]) {
                const QSizeF size = outerSize(plan.units[at(u)]);
                height += size.height() + kRowGap;
                if (arm == &backwardOfRow)
                    backwardWidth = std::max(backwardWidth, size.width());
            }
            rowHeight[at(r)] = std::max(rowHeight[at(r)], height);
        }
    }
    // Tiles fill columns, in reading order, so that the picture is about as wide as a screen
    // instead of one tall strip (96 transformer blocks would be hundreds of screens high).
    const double tileWidth = forwardWidth + kArmGap + backwardWidth;
    const double total = std::accumulate(rowHeight.begin(), rowHeight.end(), 0.0);
    const int columns
        = std::clamp(static_cast<int>(std::lround(std::sqrt(kAspect * total / std::max(tileWidth, 1.0)))), 1,
            std::max(plan.rows, 1));
    const double perColumn = total / columns;

    std::vector<QPointF> originOf(plan.units.size());
    double before = 0; // height of the rows before this one
    double y = 0;
    double bottom = 0;
    int column = 0;
    // A new column starts only where the outermost frame changes, so that a frame (a range of
    // blocks) never spans two columns.
    auto outermostFrame = [&](int r) {
        const auto& units = forwardOfRow[at(r)].empty() ? backwardOfRow[at(r)] : forwardOfRow[at(r)];
        if (units.empty())
            return -1;
        int c = whole.boxes[at(plan.units[at(units.front())].items.front())].cluster;
        while (c >= 0 && whole.clusters[at(c)].parent >= 0)
            c = whole.clusters[at(c)].parent;
        return c;
    };
    for (int r = 0; r < plan.rows; ++r) {
        const int wanted = static_cast<int>((before + rowHeight[at(r)] / 2) / perColumn);
        if (wanted > column && r > 0 && outermostFrame(r) != outermostFrame(r - 1)) {
            ++column;
            y = 0;
        }
        const double left = column * (tileWidth + kColumnGap);
        for (bool forwardArm : {true, false}) {
            double top = y;
            for (int u : (forwardArm ? forwardOfRow : backwardOfRow)[at(r)]) {
                const ComposedPlan::Unit& unit = plan.units[at(u)];
                const QSizeF size = outerSize(unit);
                // The forward arm is aligned on its right edge, the backward on its left, so
                // that the gap between them stays even.
                const double x = left + (forwardArm ? forwardWidth - size.width() : forwardWidth + kArmGap);
                const Room room = roomFor(unit);
                originOf[at(u)]
                    = QPointF(x + room.side, top + room.top) - shapeLayouts[at(unit.shape)].bounds.topLeft();
                top += size.height() + kRowGap;
            }
        }
        y += rowHeight[at(r)];
        before += rowHeight[at(r)];
        bottom = std::max(bottom, y);
    }
    const double right = (column + 1) * tileWidth + column * kColumnGap;

    std::vector<int> unitOfItem(whole.boxes.size(), -1);
    for (std::size_t u = 0; u < plan.units.size(); ++u) {
        const ComposedPlan::Unit& unit = plan.units[u];
        const LayoutResult& shape = shapeLayouts[at(unit.shape)];
        for (std::size_t k = 0; k < unit.items.size(); ++k) {
            const int item = unit.items[k];
            unitOfItem[at(item)] = static_cast<int>(u);
            // The shape's box is as wide as the widest instance: centre this one in it.
            const QPointF centre = shape.boxes[k].center() + originOf[u];
            const LayoutBox& box = whole.boxes[at(item)];
            result.boxes[at(item)]
                = QRectF(centre.x() - box.width / 2, centre.y() - box.height / 2, box.width, box.height);
        }
    }

    for (std::size_t l = 0; l < whole.links.size(); ++l) {
        const LayoutLink& link = whole.links[l];
        const int inPart = plan.linkInPart[l];
        if (inPart >= 0) {
            const int u = unitOfItem[at(link.from)];
            EdgeGeometry e = shapeLayouts[at(plan.units[at(u)].shape)].edges[at(inPart)];
            for (QPointF& p : e.curve)
                p += originOf[at(u)];
            e.arrowTip += originOf[at(u)];
            result.edges[l] = std::move(e);
            continue;
        }
        const QRectF& from = result.boxes[at(link.from)];
        const QRectF& to = result.boxes[at(link.to)];
        result.edges[l] = link.role == EdgeRole::Across ? acrossEdge(from, to)
                                                        : armEdge(from, to, link.role == EdgeRole::Up);
    }

    fitFrames(whole, result);
    result.bounds = QRectF(0, 0, right, std::max(bottom - kRowGap, 0.0));
    return result;
}

void fitFrames(const LayoutRequest& whole, LayoutResult& result)
{
    // Innermost first, so that outer frames include inner ones.
    result.clusters.assign(whole.clusters.size(), QRectF());
    std::vector<int> depth(whole.clusters.size(), 0);
    for (std::size_t c = 0; c < whole.clusters.size(); ++c) {
        for (int p = whole.clusters[c].parent; p >= 0; p = whole.clusters[at(p)].parent)
            ++depth[c];
    }
    std::vector<int> order(whole.clusters.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&depth](int a, int b) { return depth[at(a)] > depth[at(b)]; });
    for (std::size_t i = 0; i < whole.boxes.size(); ++i) {
        if (whole.boxes[i].cluster >= 0) {
            QRectF& frame = result.clusters[at(whole.boxes[i].cluster)];
            frame = frame.isNull() ? result.boxes[i] : frame.united(result.boxes[i]);
        }
    }
    for (int c : order) {
        QRectF& frame = result.clusters[at(c)];
        if (frame.isNull())
            continue;
        if (whole.clusters[at(c)].visible)
            frame.adjust(-kFrameMargin, -kFrameMargin - whole.clusters[at(c)].headerHeight, kFrameMargin,
                kFrameMargin);
        if (const int parent = whole.clusters[at(c)].parent; parent >= 0) {
            QRectF& outer = result.clusters[at(parent)];
            outer = outer.isNull() ? frame : outer.united(frame);
        }
    }
}

} // namespace remat::ui
