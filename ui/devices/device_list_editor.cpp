// SPDX-License-Identifier: MIT
#include "devices/device_list_editor.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace remat::ui {
namespace {

constexpr std::int64_t kNewDeviceBytes = std::int64_t {16} << 30; // a 16 GiB accelerator

const devices::PartitionMode kModes[] = {devices::PartitionMode::SizeBased, devices::PartitionMode::SparseNn,
    devices::PartitionMode::CostAware, devices::PartitionMode::KlBased, devices::PartitionMode::AotBased};

} // namespace

DeviceListEditor::DeviceListEditor(QWidget* parent)
    : QWidget(parent)
    , m_table(new QTableWidget(0, 1, this))
    , m_mode(new QComboBox(this))
    , m_rate(new QDoubleSpinBox(this))
    , m_saturate(new QCheckBox(tr("Saturate host (copy partitions onto idle devices)"), this))
{
    m_table->setHorizontalHeaderLabels({tr("Memory (bytes)")});
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    for (devices::PartitionMode mode : kModes)
        m_mode->addItem(QString::fromLatin1(devices::partitionModeName(mode).data()), static_cast<int>(mode));
    m_rate->setRange(0.0, 1e15);
    m_rate->setDecimals(0);
    m_rate->setSuffix(tr(" B/s"));
    m_rate->setSpecialValueText(tr("not counted"));
    m_rate->setToolTip(tr("Transfer rate between devices; 0 leaves communication out of the critical path"));

    auto* add = new QPushButton(tr("Add device"), this);
    auto* remove = new QPushButton(tr("Remove"), this);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(add);
    buttons->addWidget(remove);
    buttons->addStretch();
    auto* form = new QFormLayout;
    form->addRow(tr("Mode"), m_mode);
    form->addRow(tr("Transfer rate"), m_rate);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_table);
    layout->addLayout(buttons);
    layout->addLayout(form);
    layout->addWidget(m_saturate);

    connect(add, &QPushButton::clicked, this, &DeviceListEditor::addDevice);
    connect(remove, &QPushButton::clicked, this, &DeviceListEditor::removeSelectedDevice);
    connect(m_table, &QTableWidget::itemChanged, this, [this] {
        if (!m_updating)
            readTable();
    });
    connect(m_mode, &QComboBox::currentIndexChanged, this, [this] {
        m_settings.mode = static_cast<devices::PartitionMode>(m_mode->currentData().toInt());
        commit();
    });
    connect(m_rate, &QDoubleSpinBox::valueChanged, this, [this](double rate) {
        m_settings.transferRateBytesPerSec = rate;
        commit();
    });
    connect(m_saturate, &QCheckBox::toggled, this, [this](bool on) {
        m_settings.saturateHost = on;
        commit();
    });
}

void DeviceListEditor::setSettings(const DeviceSettings& settings)
{
    m_updating = true;
    m_settings = settings;
    fillTable();
    m_mode->setCurrentIndex(m_mode->findData(static_cast<int>(settings.mode)));
    m_rate->setValue(settings.transferRateBytesPerSec);
    m_saturate->setChecked(settings.saturateHost);
    m_updating = false;
}

void DeviceListEditor::addDevice()
{
    m_settings.deviceBytes.push_back(
        m_settings.deviceBytes.empty() ? kNewDeviceBytes : m_settings.deviceBytes.back());
    m_updating = true;
    fillTable();
    m_updating = false;
    commit();
}

void DeviceListEditor::removeSelectedDevice()
{
    const int row = m_table->currentRow();
    if (row < 0 || row >= static_cast<int>(m_settings.deviceBytes.size()))
        return;
    m_settings.deviceBytes.erase(m_settings.deviceBytes.begin() + row);
    m_updating = true;
    fillTable();
    m_updating = false;
    commit();
}

void DeviceListEditor::fillTable()
{
    m_table->setRowCount(static_cast<int>(m_settings.deviceBytes.size()));
    QStringList ids;
    for (std::size_t i = 0; i < m_settings.deviceBytes.size(); ++i) {
        m_table->setItem(
            static_cast<int>(i), 0, new QTableWidgetItem(QString::number(m_settings.deviceBytes[i])));
        ids << tr("dev %1").arg(i);
    }
    m_table->setVerticalHeaderLabels(ids);
}

void DeviceListEditor::readTable()
{
    // A size that does not parse is shown in red and left out until it is fixed.
    bool allValid = true;
    std::vector<std::int64_t> sizes;
    for (int row = 0; row < m_table->rowCount(); ++row) {
        QTableWidgetItem* item = m_table->item(row, 0);
        bool ok = false;
        const qint64 bytes = item ? item->text().trimmed().toLongLong(&ok) : 0;
        ok = ok && bytes >= 0;
        if (item) {
            m_updating = true;
            item->setForeground(ok ? palette().color(QPalette::Text) : QColor(Qt::red));
            m_updating = false;
        }
        allValid = allValid && ok;
        sizes.push_back(bytes);
    }
    if (!allValid)
        return;
    m_settings.deviceBytes = std::move(sizes);
    commit();
}

void DeviceListEditor::commit()
{
    if (!m_updating)
        Q_EMIT edited(m_settings);
}

} // namespace remat::ui
