// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <QVector>
#include <QWidget>

namespace remat::ui {

/// One bar per device: the memory its partitions use against its capacity.
class DeviceMemoryBars : public QWidget {
    Q_OBJECT
public:
    struct Bar {
        QString label;
        qint64 usedBytes = 0;
        qint64 capacityBytes = 0;
    };

    explicit DeviceMemoryBars(QWidget* parent = nullptr);

    void setBars(QVector<Bar> bars);
    const QVector<Bar>& bars() const { return m_bars; }
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    QVector<Bar> m_bars;
};

} // namespace remat::ui
