// SPDX-License-Identifier: MIT
#include "plots/point_labels.h"

#include <QFontMetricsF>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace remat::ui {
namespace {

/// How far a label may move from its point before it stays where it is, overlapping.
constexpr int kMostLines = 6;
constexpr double kClearance = 1; // pixels between two labels' texts

void turnAwayFromEdges(QCPItemText* label)
{
    const QCPRange x = label->position->keyAxis()->range();
    const QCPRange y = label->position->valueAxis()->range();
    const QPointF at = label->position->coords();
    const bool right = at.x() > x.center();
    const bool low = at.y() < y.center();
    label->setPositionAlignment(
        (right ? Qt::AlignRight : Qt::AlignLeft) | (low ? Qt::AlignBottom : Qt::AlignTop));
    label->setPadding(QMargins(right ? 0 : 4, low ? 0 : 2, right ? 4 : 0, low ? 2 : 0));
}

/// The text's own box in pixels: the padding that sets it off its point is not part of it.
QRectF textBox(const QCPItemText* label)
{
    const QMargins pad = label->padding();
    return QRectF(label->topLeft->pixelPosition(), label->bottomRight->pixelPosition())
        .normalized()
        .adjusted(pad.left(), pad.top(), -pad.right(), -pad.bottom());
}

/// Moves a label `lines` lines further from its point: up when it stands above it, else down.
void liftBy(QCPItemText* label, const QMargins& base, int lines)
{
    const int step = static_cast<int>(std::ceil(QFontMetricsF(label->font()).height())) + 2;
    QMargins padding = base;
    if (label->positionAlignment() & Qt::AlignBottom)
        padding.setBottom(base.bottom() + lines * step);
    else
        padding.setTop(base.top() + lines * step);
    label->setPadding(padding);
}

} // namespace

void placePointLabels(const std::vector<QCPItemText*>& labels)
{
    std::vector<QCPItemText*> byX = labels;
    for (QCPItemText* label : byX)
        turnAwayFromEdges(label);
    std::stable_sort(byX.begin(), byX.end(), [](const QCPItemText* a, const QCPItemText* b) {
        return a->position->pixelPosition().x() < b->position->pixelPosition().x();
    });
    std::vector<QRectF> placed;
    for (QCPItemText* label : byX) {
        const QMargins base = label->padding();
        const auto clear = [&] {
            const QRectF box = textBox(label).adjusted(-kClearance, -kClearance, kClearance, kClearance);
            return std::none_of(
                placed.begin(), placed.end(), [&](const QRectF& other) { return other.intersects(box); });
        };
        int lines = 0;
        while (!clear() && lines < kMostLines)
            liftBy(label, base, ++lines);
        if (!clear())
            label->setPadding(base); // crowded beyond reach: beside its own point at least
        placed.push_back(textBox(label));
    }
}

} // namespace remat::ui
