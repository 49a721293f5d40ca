// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QPointF>
#include <QRectF>
#include <QString>

#include <vector>

namespace remat::ui {

/// How an edge is laid out in the U: forward flows down the left arm, backward up the right
/// arm, and forward-to-backward edges span the gap without constraining the ranks.
enum class EdgeRole : std::uint8_t { Down, Up, Across };

struct LayoutBox {
    double width = 0; ///< scene units (pixels at 100 %)
    double height = 0;
    int cluster = -1; ///< innermost cluster holding it, -1 for none
};

struct LayoutLink {
    int from = 0;
    int to = 0;
    EdgeRole role = EdgeRole::Down;
};

struct LayoutCluster {
    int parent = -1;
    double headerHeight = 0; ///< room kept at the top for the frame's title
    bool visible = true; ///< false: only keeps its members together (the U's two arms)
};

/// What Graphviz is asked to place. Pure data, so that it can be hashed for the layout cache.
struct LayoutRequest {
    std::vector<LayoutBox> boxes;
    std::vector<LayoutLink> links;
    std::vector<LayoutCluster> clusters;

    /// A digest of everything that influences the layout (the cache key).
    QByteArray fingerprint() const;

    /// For the layout worker process (see layout_worker.h).
    QByteArray serialize() const;
    /// Reads what serialize() wrote and checks that every index is in range and the frames nest
    /// without cycles; false (and why in `error`) otherwise.
    static bool deserialize(const QByteArray& data, LayoutRequest& out, QString* error = nullptr);
};

struct EdgeGeometry {
    std::vector<QPointF> curve; ///< cubic Bézier: start, then (c1, c2, end) triples; from source to target
    QPointF arrowTip; ///< where the arrowhead points; equals curve.back() when there is none
};

/// Where Graphviz put everything, in scene coordinates (y grows downwards).
struct LayoutResult {
    std::vector<QRectF> boxes;
    std::vector<EdgeGeometry> edges; ///< parallel to the request's links
    std::vector<QRectF> clusters;
    QRectF bounds;
    QString engine; ///< "dot (U)", "sfdp", ...
    double seconds = 0; ///< Graphviz time; 0 when it came from the cache
    bool fromCache = false;

    QByteArray serialize() const;
    /// Reads what serialize() wrote; false (and why in `error`) when the data is damaged.
    static bool deserialize(const QByteArray& data, LayoutResult& out, QString* error = nullptr);
};

} // namespace remat::ui
