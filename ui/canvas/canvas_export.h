// SPDX-License-Identifier: MIT
#pragma once

#include <QRectF>
#include <QSize>
#include <QString>

class QGraphicsScene;

namespace remat::ui {

/// How a picture of `source` (scene units) is rasterised: two pixels per unit where that fits,
/// shrunk to stay within kMaxImageSide and kMaxImagePixels; refused (with the reason) when the
/// shrinking would make it unreadable, as for a fully expanded graph of thousands of nodes.
struct RasterPlan {
    static constexpr double kPreferredScale = 2.0;
    static constexpr double kMinScale = 0.35; ///< below this node names are smaller than 4 pixels
    static constexpr int kMaxImageSide = 20000;
    static constexpr double kMaxImagePixels = 120e6; ///< about 480 MB of ARGB32

    QSize size;
    double scale = 0;
    QString refusal; ///< non-empty: do not render

    static RasterPlan forSource(const QRectF& source);
};

/// Writes the scene's `source` rectangle as SVG (".svg"), PDF (".pdf") or PNG (anything else), through
/// a temporary file renamed over `path`. Returns an empty string on success, else a message
/// saying why (the core's for a failed write).
QString exportSceneImage(QGraphicsScene& scene, const QRectF& source, const QString& path);

} // namespace remat::ui
