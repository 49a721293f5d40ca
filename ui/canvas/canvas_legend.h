// SPDX-License-Identifier: MIT
#pragma once

#include "canvas/canvas_palette.h"

#include <QWidget>

#include <vector>

class QPainter;

namespace remat::ui {

struct CanvasState;

/// The key to the canvas colours and marks, in a corner of the canvas. Its first column says
/// what the nodes' fills mean, which changes: regions of the graph, or which plan saves a node
/// while two plans are compared, or which device holds it while a device split is shown.
class CanvasLegend : public QWidget {
    Q_OBJECT
public:
    enum class Fills { Regions, Plans, Devices };

    explicit CanvasLegend(QWidget* parent = nullptr);
    /// The palette and the fills of the canvas as `state` draws it now.
    void follow(const CanvasState& state);
    void setPalette(const CanvasPalette& palette);
    /// `devices`: how many device partitions are coloured (Fills::Devices only).
    void setFills(Fills fills, int devices = 0);
    /// Whether the marks against PyTorch's recorded decision are keyed (they are drawn only
    /// when the file recorded a decision for the plan's options).
    void setReferenceMarks(bool shown);
    Fills fills() const { return m_fills; }
    QSize sizeHint() const override;
    /// Folded, the legend is a small "Legend" tab; a click unfolds or folds it.
    void setFolded(bool folded);
    bool isFolded() const { return m_folded; }
    /// The labels in the unfolded legend, column by column, and their places, each as wide as
    /// its text (empty when folded).
    int labelCount() const;
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
    /// What stands beside a label: a node's fill, or its border (with its badge, if it has one).
    enum class Swatch { Fill, Saved, Recomputed, Banned, ReferenceOnly, DiffersCorner };
    struct Entry {
        int column;
        int row;
        Swatch swatch;
        QColor fill; ///< Swatch::Fill
        QString label;
    };
    std::vector<Entry> entries() const;
    int columnWidth(const std::vector<Entry>& entries, int column) const;
    static int rowCount(const std::vector<Entry>& entries);
    QRect labelRect(const std::vector<Entry>& entries, std::size_t index) const;
    void paintSwatch(QPainter& p, const Entry& entry, QPointF at) const;

    CanvasPalette m_palette = CanvasPalette::defaults();
    Fills m_fills = Fills::Regions;
    bool m_referenceMarks = false;
    int m_devices = 0;
    bool m_folded = false;
};

} // namespace remat::ui
