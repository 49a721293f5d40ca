// SPDX-License-Identifier: MIT
#include "devices/device_memory_bars.h"

#include <QPainter>

#include <algorithm>

namespace remat::ui {
namespace {

constexpr int kRowHeight = 22;
constexpr int kLabelWidth = 220;

} // namespace

DeviceMemoryBars::DeviceMemoryBars(QWidget* parent)
    : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

void DeviceMemoryBars::setBars(QVector<Bar> bars)
{
    m_bars = std::move(bars);
    setFixedHeight(sizeHint().height());
    update();
}

QSize DeviceMemoryBars::sizeHint() const
{
    return {kLabelWidth + 200, std::max(1, static_cast<int>(m_bars.size())) * kRowHeight};
}

void DeviceMemoryBars::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    const int barWidth = std::max(40, width() - kLabelWidth - 8);
    for (int i = 0; i < m_bars.size(); ++i) {
        const Bar& bar = m_bars[i];
        const QRect row(0, i * kRowHeight, width(), kRowHeight);
        painter.setPen(palette().color(QPalette::WindowText));
        painter.drawText(row.adjusted(4, 0, 0, 0), Qt::AlignVCenter | Qt::AlignLeft, bar.label);
        const QRect frame(kLabelWidth, row.top() + 4, barWidth, kRowHeight - 8);
        const double fraction = bar.capacityBytes > 0
            ? std::clamp(
                static_cast<double>(bar.usedBytes) / static_cast<double>(bar.capacityBytes), 0.0, 1.0)
            : 0.0;
        painter.fillRect(frame, palette().color(QPalette::Base));
        const QColor fill = fraction > 0.9 ? QColor(0xd9, 0x53, 0x4f) : QColor(0x5c, 0xb8, 0x5c);
        painter.fillRect(
            QRect(frame.topLeft(), QSize(static_cast<int>(frame.width() * fraction), frame.height())), fill);
        painter.setPen(palette().color(QPalette::Mid));
        painter.drawRect(frame);
    }
}

} // namespace remat::ui
