// SPDX-License-Identifier: MIT
#include "canvas/canvas_legend.h"

#include "canvas/canvas_state.h"
#include "canvas/far_out_painting.h"

#include <QEvent>
#include <QFontMetrics>
#include <QPainter>

#include <algorithm>

namespace remat::ui {
namespace {

constexpr int kRow = 17;
/// Rows the legend always has, so that its size does not change with the marks it keys (the
/// picture is fitted around it): the regions and the marks take seven at most; device
/// partitions take seven, and the yellow corner's row is an eighth then.
constexpr int kRows = 7;
constexpr int kMargin = 8;
constexpr int kSwatchSpace = 26; ///< from a swatch's left edge to its label
constexpr int kColumnGap = 16;
constexpr int kFontPixels = 11;
const QColor kRemovedFill(0xf4, 0xf4, 0xf4);

} // namespace

CanvasLegend::CanvasLegend(QWidget* parent)
    : QWidget(parent)
{
    setCursor(Qt::PointingHandCursor);
    setToolTip(tr("Click to fold or unfold the legend"));
    resize(sizeHint());
}

void CanvasLegend::follow(const CanvasState& state)
{
    m_palette = state.palette;
    if (state.comparingPlans())
        setFills(Fills::Plans);
    else if (state.showingDevices())
        setFills(Fills::Devices,
            1 + *std::max_element(state.devicePartition.begin(), state.devicePartition.end()));
    else
        setFills(Fills::Regions);
    setReferenceMarks(state.showsReference());
    update();
}

void CanvasLegend::setReferenceMarks(bool shown)
{
    if (shown == m_referenceMarks)
        return;
    m_referenceMarks = shown;
    resize(sizeHint());
    update();
}

void CanvasLegend::setFills(Fills fills, int devices)
{
    devices = fills == Fills::Devices ? std::max(devices, 0) : 0;
    if (fills == m_fills && devices == m_devices)
        return;
    m_fills = fills;
    m_devices = devices;
    resize(sizeHint());
    update();
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

/// Labels are measured, not given a fixed room: a glyph such as ⊘ comes from a fallback font
/// whose width the label's own font does not predict (its ")" was cut off).
std::vector<CanvasLegend::Entry> CanvasLegend::entries() const
{
    std::vector<Entry> out;
    const auto fill = [&](int row, const QColor& colour, const QString& label) {
        out.push_back({0, row, Swatch::Fill, colour, label});
    };
    switch (m_fills) {
    case Fills::Regions:
        fill(0, m_palette.forward, tr("forward"));
        fill(1, m_palette.backward, tr("backward"));
        fill(2, m_palette.primal, tr("primal input"));
        fill(3, m_palette.tangent, tr("tangent"));
        fill(4, m_palette.unclaimed, tr("unclaimed (bw-only)"));
        fill(5, kRemovedFill, tr("removed (DCE/CSE)"));
        break;
    case Fills::Plans:
        fill(0, planColour(m_palette, CanvasState::OnlyA), tr("saved by plan A only"));
        fill(1, planColour(m_palette, CanvasState::OnlyB), tr("saved by plan B only"));
        fill(2, planColour(m_palette, CanvasState::InBoth), tr("saved by both plans"));
        fill(3, planColour(m_palette, CanvasState::InNeither), tr("saved by neither"));
        break;
    case Fills::Devices: {
        // As many rows as the legend has; the Devices dock lists them all.
        const bool more = m_devices > kRows;
        for (int d = 0; d < (more ? kRows - 1 : m_devices); ++d)
            fill(d, devicePartitionColour(d), tr("device partition %1").arg(d));
        if (more)
            out.push_back({0, kRows - 1, Swatch::Fill, QColor(0xf2, 0xf2, 0xf2),
                tr("%1 more (Devices dock)").arg(m_devices - kRows + 1)});
        break;
    }
    }
    int row = 0;
    const auto mark = [&](Swatch swatch, const QColor& colour, const QString& label) {
        out.push_back({1, row++, swatch, colour, label});
    };
    mark(Swatch::Saved, {}, tr("saved for backward (S)"));
    mark(Swatch::Recomputed, {}, tr("recomputed (R)"));
    mark(Swatch::Banned, {}, tr("banned from recompute (⊘)"));
    if (m_referenceMarks)
        mark(Swatch::ReferenceOnly, {}, tr("only PyTorch saves it"));
    mark(Swatch::Fill, m_palette.tagSave, tr("tag MS/PS (save)"));
    mark(Swatch::Fill, m_palette.tagRecompute, tr("tag MR/PR (recompute)"));
    mark(Swatch::Fill, m_palette.tagOffload, tr("tag MO/PO (CPU offload)"));
    // The yellow corner: under the regions, which leave a row free; else after the tags.
    if (m_referenceMarks && m_fills == Fills::Regions)
        out.push_back({0, 6, Swatch::DiffersCorner, {}, tr("PyTorch decided otherwise")});
    else if (m_referenceMarks)
        mark(Swatch::DiffersCorner, {}, tr("PyTorch decided otherwise"));
    return out;
}

QFont CanvasLegend::labelFont() const
{
    QFont f = font();
    f.setPixelSize(kFontPixels);
    return f;
}

int CanvasLegend::labelCount() const
{
    return static_cast<int>(entries().size());
}

QRect CanvasLegend::labelRect(int index) const
{
    const auto all = entries();
    if (m_folded || index < 0 || index >= static_cast<int>(all.size()))
        return {};
    return labelRect(all, static_cast<std::size_t>(index));
}

QRect CanvasLegend::labelRect(const std::vector<Entry>& all, std::size_t index) const
{
    const Entry& entry = all[index];
    const int left = entry.column == 0 ? kMargin : kMargin + columnWidth(all, 0) + kColumnGap;
    const int width = QFontMetrics(labelFont()).horizontalAdvance(entry.label);
    return {left + kSwatchSpace, 7 + entry.row * kRow, width, kRow - 2};
}

QString CanvasLegend::labelText(int index) const
{
    const auto all = entries();
    return index >= 0 && index < static_cast<int>(all.size()) ? all[static_cast<std::size_t>(index)].label
                                                              : QString();
}

int CanvasLegend::columnWidth(const std::vector<Entry>& all, int column) const
{
    const QFontMetrics metrics(labelFont());
    int widest = 0;
    for (const Entry& entry : all) {
        if (entry.column == column)
            widest = std::max(widest, metrics.horizontalAdvance(entry.label));
    }
    return kSwatchSpace + widest;
}

QSize CanvasLegend::sizeHint() const
{
    if (m_folded)
        return {72, kRow + 6};
    const auto all = entries();
    return {kMargin + columnWidth(all, 0) + kColumnGap + columnWidth(all, 1) + kMargin,
        std::max(kRows, rowCount(all)) * kRow + 12};
}

int CanvasLegend::rowCount(const std::vector<Entry>& all)
{
    int rows = 0;
    for (const Entry& entry : all)
        rows = std::max(rows, entry.row + 1);
    return rows;
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
    const auto all = entries();
    for (std::size_t i = 0; i < all.size(); ++i) {
        const QRect label = labelRect(all, i);
        paintSwatch(p, all[i], QPointF(label.left() - kSwatchSpace, label.top()));
        p.setPen(Qt::black);
        p.drawText(label, Qt::AlignVCenter | Qt::TextDontClip, all[i].label);
    }
}

void CanvasLegend::paintSwatch(QPainter& p, const Entry& entry, QPointF at) const
{
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
    switch (entry.swatch) {
    case Swatch::Fill:
        p.setPen(QPen(entry.fill.darker(160), 1));
        p.setBrush(entry.fill);
        p.drawRoundedRect(QRectF(at.x(), at.y() + 2, 20, 11), 2, 2);
        return;
    case Swatch::Saved:
        return border(QPen(m_palette.saved, 3), true);
    case Swatch::Recomputed:
        return border(QPen(m_palette.recomputed, 2.5, Qt::DashLine), true);
    case Swatch::Banned:
        return border(QPen(m_palette.banned, 1), true);
    case Swatch::ReferenceOnly:
        return border(QPen(m_palette.referenceOnly, 2.5, Qt::DotLine), false);
    case Swatch::DiffersCorner: {
        // A node box with the yellow corner the canvas puts where our plan and PyTorch's differ.
        const QRectF box(at.x() + 1, at.y() + 2, 19, 11);
        p.setPen(QPen(m_palette.forward.darker(160), 1));
        p.setBrush(m_palette.forward);
        p.drawRoundedRect(box, 2, 2);
        p.setPen(Qt::NoPen);
        p.setBrush(m_palette.referenceOnly);
        p.drawPolygon(QPolygonF {
            box.bottomRight(), box.bottomRight() - QPointF(8, 0), box.bottomRight() - QPointF(0, 8)});
        return;
    }
    }
}

} // namespace remat::ui
