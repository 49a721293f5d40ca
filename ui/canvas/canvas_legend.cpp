// SPDX-License-Identifier: MIT
#include "canvas/canvas_legend.h"

#include <QPainter>

namespace remat::ui {
namespace {

constexpr int kRow = 17;
constexpr int kRows = 7;
constexpr int kColumn = 182;

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

void CanvasLegend::setPalette(const CanvasPalette& palette)
{
    m_palette = palette;
    update();
}

QSize CanvasLegend::sizeHint() const
{
    if (m_folded)
        return {72, kRow + 6};
    return {kColumn * 2 + 14, kRows * kRow + 12};
}

void CanvasLegend::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(QColor(0, 0, 0, 70));
    p.setBrush(QColor(255, 255, 255, 235));
    p.drawRoundedRect(QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5), 5, 5);
    QFont f = font();
    f.setPixelSize(11);
    p.setFont(f);
    if (m_folded) {
        p.setPen(Qt::black);
        p.drawText(QRectF(rect()), Qt::AlignCenter, tr("Legend ▴"));
        return;
    }

    auto at = [](int column, int row) { return QPointF(8 + column * kColumn, 7 + row * kRow); };
    auto fillSwatch = [&](int column, int row, const QColor& colour, const QString& text) {
        const QPointF o = at(column, row);
        p.setPen(QPen(colour.darker(160), 1));
        p.setBrush(colour);
        p.drawRoundedRect(QRectF(o.x(), o.y() + 2, 20, 11), 2, 2);
        p.setPen(Qt::black);
        p.drawText(QRectF(o.x() + 26, o.y(), kColumn - 30, kRow - 2), Qt::AlignVCenter, text);
    };
    auto borderSwatch = [&](int column, int row, const QPen& pen, const QString& text, const QString& badge) {
        const QPointF o = at(column, row);
        p.setPen(pen);
        p.setBrush(m_palette.forward);
        p.drawRoundedRect(QRectF(o.x() + 1, o.y() + 3, 18, 9), 2, 2);
        if (!badge.isEmpty()) {
            p.setPen(Qt::NoPen);
            p.setBrush(pen.color());
            p.drawEllipse(QPointF(o.x() + 19, o.y() + 3), 5, 5);
        }
        p.setPen(Qt::black);
        p.drawText(QRectF(o.x() + 26, o.y(), kColumn - 30, kRow - 2), Qt::AlignVCenter, text);
    };

    fillSwatch(0, 0, m_palette.forward, tr("forward"));
    fillSwatch(0, 1, m_palette.backward, tr("backward"));
    fillSwatch(0, 2, m_palette.primal, tr("primal input"));
    fillSwatch(0, 3, m_palette.tangent, tr("tangent"));
    fillSwatch(0, 4, m_palette.unclaimed, tr("unclaimed (bw-only)"));
    fillSwatch(0, 5, QColor(0xf4, 0xf4, 0xf4), tr("removed (DCE/CSE)"));
    borderSwatch(1, 0, QPen(m_palette.saved, 3), tr("saved for backward (S)"), QStringLiteral("S"));
    borderSwatch(1, 1, QPen(m_palette.recomputed, 2.5, Qt::DashLine), tr("recomputed (R)"), QStringLiteral("R"));
    borderSwatch(1, 2, QPen(m_palette.banned, 1), tr("banned from recompute (⊘)"), QStringLiteral("B"));
    borderSwatch(1, 3, QPen(m_palette.referenceOnly, 2.5, Qt::DotLine), tr("only PyTorch saves it"), QString());
    fillSwatch(1, 4, m_palette.tagSave, tr("tag MS/PS (save)"));
    fillSwatch(1, 5, m_palette.tagRecompute, tr("tag MR/PR (recompute)"));
    fillSwatch(1, 6, m_palette.tagOffload, tr("tag MO/PO (CPU offload)"));
}

} // namespace remat::ui
