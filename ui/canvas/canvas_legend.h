// SPDX-License-Identifier: MIT
#pragma once

#include "canvas/canvas_palette.h"

#include <QWidget>

namespace remat::ui {

/// The key to the canvas colours and marks, in a corner of the canvas.
class CanvasLegend : public QWidget {
    Q_OBJECT
public:
    explicit CanvasLegend(QWidget* parent = nullptr);
    void setPalette(const CanvasPalette& palette);
    QSize sizeHint() const override;
    /// Folded, the legend is a small "Legend" tab; a click unfolds or folds it.
    void setFolded(bool folded);
    bool isFolded() const { return m_folded; }

Q_SIGNALS:
    void foldedChanged(bool folded);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;

private:
    CanvasPalette m_palette = CanvasPalette::defaults();
    bool m_folded = false;
};

} // namespace remat::ui
