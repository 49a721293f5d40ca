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

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    CanvasPalette m_palette = CanvasPalette::defaults();
};

} // namespace remat::ui
