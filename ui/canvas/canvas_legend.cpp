// SPDX-License-Identifier: MIT
#include "canvas/canvas_legend.h"

#include <QEvent>
#include <QFontMetrics>
#include <QPainter>

#include <algorithm>
#include <array>

namespace remat::ui {
namespace {

constexpr int kRow = 17;
constexpr int kRows = 7;
constexpr int kMargin = 8;
constexpr int kSwatchSpace = 26; ///< from a swatch's left edge to its label
constexpr int kColumnGap = 16;
constexpr int kFontPixels = 11;

struct Entry {
    int column;
    int row;
    CanvasLegend::Swatch swatch;
    const char* label;
};

using S = CanvasLegend::Swatch;
#define LEGEND_LABEL(text) QT_TRANSLATE_NOOP("remat::ui::CanvasLegend", text)

/// The legend's rows. Labels are measured, not given a fixed room: a glyph such as ⊘ comes from a
/// fallback font whose width the label's own font does not predict (its ")" was cut off).
constexpr std::array kEntries {
    Entry {0, 0, S::Forward, LEGEND_LABEL("forward")},
    Entry {0, 1, S::Backward, LEGEND_LABEL("backward")},
    Entry {0, 2, S::Primal, LEGEND_LABEL("primal input")},
    Entry {0, 3, S::Tangent, LEGEND_LABEL("tangent")},
    Entry {0, 4, S::Unclaimed, LEGEND_LABEL("unclaimed (bw-only)")},
    Entry {0, 5, S::Removed, LEGEND_LABEL("removed (DCE/CSE)")},
    Entry {1, 0, S::Saved, LEGEND_LABEL("saved for backward (S)")},
    Entry {1, 1, S::Recomputed, LEGEND_LABEL("recomputed (R)")},
    Entry {1, 2, S::Banned, LEGEND_LABEL("banned from recompute (⊘)")},
    Entry {1, 3, S::ReferenceOnly, LEGEND_LABEL("only PyTorch saves it")},
    Entry {1, 4, S::TagSave, LEGEND_LABEL("tag MS/PS (save)")},
    Entry {1, 5, S::TagRecompute, LEGEND_LABEL("tag MR/PR (recompute)")},
    Entry {1, 6, S::TagOffload, LEGEND_LABEL("tag MO/PO (CPU offload)")},
};

#undef LEGEND_LABEL

} // namespace

CanvasLegend::CanvasLegend(QWidget* parent)
    : QWidget(parent)
{
    setCursor(Qt::PointingHandCursor);
    setToolTip(tr("Click to fold or unfold the legend"));
    resize(sizeHint());
}

void CanvasLegend::setFolded(bool folded)
{
    if (folded == m_folded)
        return;
    m_folded = folded;
    resize(sizeHint());
    update();
    Q_EMIT foldedChanged(folded);
}

void CanvasLegend::mousePressEvent(QMouseEvent*)
{
    setFolded(!m_folded);
}

void CanvasLegend::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange)
        resize(sizeHint());
}

void CanvasLegend::setPalette(const CanvasPalette& palette)
{
    m_palette = palette;
    update();
}

QFont CanvasLegend::labelFont() const
{
    QFont f = font();
    f.setPixelSize(kFontPixels);
    return f;
}

QRect CanvasLegend::labelRect(int index) const
{
    if (m_folded || index < 0 || index >= static_cast<int>(kEntries.size()))
        return {};
    const Entry& entry = kEntries[static_cast<std::size_t>(index)];
    const int left = entry.column == 0 ? kMargin : kMargin + columnWidth(0) + kColumnGap;
    const int width = QFontMetrics(labelFont()).horizontalAdvance(tr(entry.label));
    return {left + kSwatchSpace, 7 + entry.row * kRow, width, kRow - 2};
}

QString CanvasLegend::labelText(int index) const
{
    if (index < 0 || index >= labelCount())
        return {};
    return tr(kEntries[static_cast<std::size_t>(index)].label);
}

int CanvasLegend::labelCount()
{
    return static_cast<int>(kEntries.size());
}

int CanvasLegend::columnWidth(int column) const
{
    const QFontMetrics metrics(labelFont());
    int widest = 0;
    for (const Entry& entry : kEntries) {
        if (entry.column == column)
            widest = std::max(widest, metrics.horizontalAdvance(tr(entry.label)));
    }
    return kSwatchSpace + widest;
}

QSize CanvasLegend::sizeHint() const
{
    if (m_folded)
        return {72, kRow + 6};
    return {kMargin + columnWidth(0) + kColumnGap + columnWidth(1) + kMargin, kRows * kRow + 12};
}

void CanvasLegend::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(QColor(0, 0, 0, 70));
    p.setBrush(QColor(255, 255, 255, 235));
    p.drawRoundedRect(QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5), 5, 5);
    p.setFont(labelFont());
    if (m_folded) {
        p.setPen(Qt::black);
        p.drawText(QRectF(rect()), Qt::AlignCenter, tr("Legend ▴"));
        return;
    }
    for (int i = 0; i < labelCount(); ++i) {
        const QRect label = labelRect(i);
        paintSwatch(p, kEntries[static_cast<std::size_t>(i)].swatch,
            QPointF(label.left() - kSwatchSpace, label.top()));
        p.setPen(Qt::black);
        p.drawText(label, Qt::AlignVCenter | Qt::TextDontClip, labelText(i));
    }
}

void CanvasLegend::paintSwatch(QPainter& p, Swatch swatch, QPointF at) const
{
    const auto fill = [&](const QColor& colour) {
        p.setPen(QPen(colour.darker(160), 1));
        p.setBrush(colour);
        p.drawRoundedRect(QRectF(at.x(), at.y() + 2, 20, 11), 2, 2);
    };
    const auto border = [&](const QPen& pen, bool badge) {
        p.setPen(pen);
        p.setBrush(m_palette.forward);
        p.drawRoundedRect(QRectF(at.x() + 1, at.y() + 3, 18, 9), 2, 2);
        if (badge) { // the node's badge: S, R or ⊘
            p.setPen(Qt::NoPen);
            p.setBrush(pen.color());
            p.drawEllipse(QPointF(at.x() + 19, at.y() + 3), 5, 5);
        }
    };
    switch (swatch) {
    case Swatch::Forward:
        return fill(m_palette.forward);
    case Swatch::Backward:
        return fill(m_palette.backward);
    case Swatch::Primal:
        return fill(m_palette.primal);
    case Swatch::Tangent:
        return fill(m_palette.tangent);
    case Swatch::Unclaimed:
        return fill(m_palette.unclaimed);
    case Swatch::Removed:
        return fill(QColor(0xf4, 0xf4, 0xf4));
    case Swatch::Saved:
        return border(QPen(m_palette.saved, 3), true);
    case Swatch::Recomputed:
        return border(QPen(m_palette.recomputed, 2.5, Qt::DashLine), true);
    case Swatch::Banned:
        return border(QPen(m_palette.banned, 1), true);
    case Swatch::ReferenceOnly:
        return border(QPen(m_palette.referenceOnly, 2.5, Qt::DotLine), false);
    case Swatch::TagSave:
        return fill(m_palette.tagSave);
    case Swatch::TagRecompute:
        return fill(m_palette.tagRecompute);
    case Swatch::TagOffload:
        return fill(m_palette.tagOffload);
    }
}

} // namespace remat::ui
