// SPDX-License-Identifier: MIT
#include "panels/budget_controls.h"

#include "model/device_profiles.h"
#include "model/qt_strings.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>
#include <QStandardItemModel>

#include <algorithm>
#include <cmath>

namespace remat::ui {
namespace {

constexpr int kSteps = 100; // the slider moves in 0.01 steps, as the spin box

} // namespace

BudgetControls::BudgetControls(QWidget* parent)
    : QWidget(parent)
    , m_slider(new QSlider(Qt::Horizontal, this))
    , m_spin(new QDoubleSpinBox(this))
    , m_solver(new QComboBox(this))
    , m_estimator(new QComboBox(this))
    , m_device(new QComboBox(this))
    , m_override(new QLabel(this))
{
    m_slider->setRange(0, kSteps);
    m_slider->setSingleStep(1);
    m_slider->setPageStep(10);
    m_slider->setTickPosition(QSlider::TicksBelow);
    m_slider->setTickInterval(10);
    m_spin->setRange(0.0, 1.0);
    m_spin->setSingleStep(0.01);
    m_spin->setDecimals(2);
    const QString budgetTip
        = tr("activation_memory_budget: the share of the runtime-optimal plan's activation memory the "
             "forward may keep for the backward (0: inputs only, 1: the plain min-cut). Live: the "
             "partition follows as you drag.");
    m_slider->setToolTip(budgetTip);
    m_spin->setToolTip(budgetTip);
    m_slider->setObjectName(QStringLiteral("budgetSlider"));
    m_spin->setObjectName(QStringLiteral("budgetSpinBox"));

    // Data are the core's names, as the command line's --solver and --estimator take them.
    for (KnapsackSolver s : kKnapsackSolvers)
        m_solver->addItem(toQString(solverName(s)), static_cast<int>(s));
    m_solver->setItemData(
        0, tr("PyTorch's default: dynamic programming over memory quantised to 1/10000"), Qt::ToolTipRole);
    m_solver->setItemData(1, tr("By runtime per byte, each taken while it fits"), Qt::ToolTipRole);
    m_solver->setItemData(2, tr("The exact optimum (PyTorch solves it with scipy's MILP)"), Qt::ToolTipRole);
    m_solver->setItemData(3,
        tr("dp's quantised problem by divide and conquer over one float32 row; its own tie-breaking, so "
           "it can choose differently from dp"),
        Qt::ToolTipRole);
    m_solver->setToolTip(
        tr("activation_memory_budget_solver: the knapsack that picks which banned nodes to recompute"));
    for (RuntimeEstimatorKind e :
        {RuntimeEstimatorKind::Flops, RuntimeEstimatorKind::Testing, RuntimeEstimatorKind::Roofline})
        m_estimator->addItem(toQString(estimatorName(e)), static_cast<int>(e));
    m_estimator->setItemData(0, tr("PyTorch's default: FLOP-counter formulas"), Qt::ToolTipRole);
    m_estimator->setItemData(1, tr("Every node costs 1 (PyTorch's test mode)"), Qt::ToolTipRole);
    m_estimator->setItemData(
        2, tr("max(FLOPs / peak, bytes / bandwidth) on a device: milliseconds"), Qt::ToolTipRole);
    m_estimator->setToolTip(
        tr("activation_memory_budget_runtime_estimator: how recomputing a node is priced"));

    const DeviceProfileFile& devices = deviceProfiles();
    for (const DeviceProfile& d : devices.profiles) {
        m_device->addItem(QString::fromStdString(d.name));
        m_device->setItemData(m_device->count() - 1, QString::fromStdString(d.description), Qt::ToolTipRole);
    }
    m_device->setToolTip(tr("The roofline estimator's device (from %1)").arg(devices.path));
    if (devices.profiles.empty()) {
        // Roofline needs profiles: offer it disabled, saying why.
        if (auto* model = qobject_cast<QStandardItemModel*>(m_estimator->model()))
            model->item(2)->setEnabled(false);
        m_estimator->setItemData(2, devices.error, Qt::ToolTipRole);
    }

    m_override->setWordWrap(true);
    m_override->setStyleSheet(QStringLiteral("color: #9a6b00"));
    m_override->hide();

    auto* form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    auto* budgetRow = new QHBoxLayout;
    budgetRow->addWidget(m_slider, 1);
    budgetRow->addWidget(m_spin);
    form->addRow(tr("Budget:"), budgetRow);
    form->addRow(QString(), m_override);
    auto* methodRow = new QHBoxLayout;
    methodRow->addWidget(m_solver);
    methodRow->addWidget(new QLabel(tr("Estimator:"), this));
    methodRow->addWidget(m_estimator);
    methodRow->addWidget(m_device, 1);
    methodRow->addStretch();
    form->addRow(tr("Solver:"), methodRow);

    connect(m_slider, &QSlider::valueChanged, this,
        [this](int v) { setBudget(static_cast<double>(v) / kSteps, true); });
    connect(m_spin, &QDoubleSpinBox::valueChanged, this, [this](double v) { setBudget(v, false); });
    for (QComboBox* box : {m_solver, m_estimator, m_device})
        connect(box, &QComboBox::currentIndexChanged, this, &BudgetControls::onChoiceChanged);
    setSettings(m_settings);
}

void BudgetControls::setSettings(const BudgetSettings& settings)
{
    m_updating = true;
    m_settings = settings;
    // Only when it differs: the document echoes every edit back, and rewriting the spin box's
    // text while the user types in it would move the cursor.
    if (std::abs(m_spin->value() - settings.budget) > 1e-9)
        m_spin->setValue(settings.budget);
    if (m_slider->value() != qRound(settings.budget * kSteps))
        m_slider->setValue(qRound(settings.budget * kSteps));
    m_solver->setCurrentIndex(m_solver->findData(static_cast<int>(settings.solver)));
    m_estimator->setCurrentIndex(m_estimator->findData(static_cast<int>(settings.estimator)));
    const int device
        = settings.device.isEmpty() ? 0 : m_device->findText(settings.device, Qt::MatchFixedString);
    m_device->setCurrentIndex(std::max(0, device));
    updateDeviceVisible();
    m_updating = false;
}

void BudgetControls::setBudgetOverridden(const QString& why)
{
    m_slider->setEnabled(why.isEmpty());
    m_spin->setEnabled(why.isEmpty());
    m_override->setText(why);
    m_override->setVisible(!why.isEmpty());
}

void BudgetControls::setBudget(double budget, bool fromSlider)
{
    if (m_updating)
        return;
    // Keep the other control in step without it reporting back.
    m_updating = true;
    if (fromSlider)
        m_spin->setValue(budget);
    else
        m_slider->setValue(qRound(budget * kSteps));
    m_updating = false;
    m_settings.budget = budget;
    Q_EMIT edited(m_settings);
}

void BudgetControls::onChoiceChanged()
{
    updateDeviceVisible();
    if (m_updating)
        return;
    m_settings.solver = static_cast<KnapsackSolver>(m_solver->currentData().toInt());
    m_settings.estimator = static_cast<RuntimeEstimatorKind>(m_estimator->currentData().toInt());
    // The first device stays "the file's first" until the user picks one.
    if (m_settings.estimator == RuntimeEstimatorKind::Roofline
        && (!m_settings.device.isEmpty() || m_device->currentIndex() > 0))
        m_settings.device = m_device->currentText();
    Q_EMIT edited(m_settings);
}

void BudgetControls::updateDeviceVisible()
{
    m_device->setVisible(
        m_estimator->currentData().toInt() == static_cast<int>(RuntimeEstimatorKind::Roofline)
        && m_device->count() > 0);
}

} // namespace remat::ui
