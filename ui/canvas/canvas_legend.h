// SPDX-License-Identifier: MIT
#pragma once

#include "canvas/canvas_palette.h"

#include <QWidget>

class QPainter;

namespace remat::ui {

/// The key to the canvas colours and marks, in a corner of the canvas.
class CanvasLegend : public QWidget {
    Q_OBJECT
public:
    /// What stands beside a label: a node's fill, or its border (with its badge, if it has one).
    enum class Swatch {
        Forward,
        Backward,
        Primal,
        Tangent,
        Unclaimed,
        Removed,
        Saved,
        Recomputed,
        Banned,
        ReferenceOnly,
        TagSave,
        TagRecompute,
        TagOffload,
    };

    explicit CanvasLegend(QWidget* parent = nullptr);
    void setPalette(const CanvasPalette& palette);
    QSize sizeHint() const override;
    /// Folded, the legend is a small "Legend" tab; a click unfolds or folds it.
    void setFolded(bool folded);
    bool isFolded() const { return m_folded; }
    /// The labels' places in the unfolded legend, each as wide as its text (empty when folded).
    static int labelCount();
    QRect labelRect(int index) const;
    QString labelText(int index) const;
    QFont labelFont() const; ///< the widget's font at the legend's size

Q_SIGNALS:
    void foldedChanged(bool folded);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    int columnWidth(int column) const;
    void paintSwatch(QPainter& p, Swatch swatch, QPointF at) const;

    CanvasPalette m_palette = CanvasPalette::defaults();
    bool m_folded = false;
};

} // namespace remat::ui
