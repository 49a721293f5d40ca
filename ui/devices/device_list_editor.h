// SPDX-License-Identifier: MIT
#pragma once

#include "devices/device_settings.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QTableWidget;

namespace remat::ui {

/// The devices to split across, editable in place: a table of memory sizes (add, remove, type a
/// new size), the mode, the transfer rate and host saturation. Every valid edit emits edited().
class DeviceListEditor : public QWidget {
    Q_OBJECT
public:
    explicit DeviceListEditor(QWidget* parent = nullptr);

    /// Shows `settings` without emitting edited().
    void setSettings(const DeviceSettings& settings);
    const DeviceSettings& settings() const { return m_settings; }

    QTableWidget* table() const { return m_table; }
    QComboBox* modeBox() const { return m_mode; }
    QDoubleSpinBox* rateBox() const { return m_rate; }
    QCheckBox* saturateBox() const { return m_saturate; }
    void addDevice();
    void removeSelectedDevice();

Q_SIGNALS:
    void edited(const remat::ui::DeviceSettings& settings);

private:
    void fillTable();
    void readTable();
    void commit();

    QTableWidget* m_table;
    QComboBox* m_mode;
    QDoubleSpinBox* m_rate;
    QCheckBox* m_saturate;
    DeviceSettings m_settings;
    bool m_updating = false;
};

} // namespace remat::ui
