// SPDX-License-Identifier: MIT
#pragma once

#include "model/budget_settings.h"

#include <QWidget>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QSlider;

namespace remat::ui {

/// The memory-budget partitioner's controls: the budget (a slider and a spin box, 0..1 in steps
/// of 0.01, both live), the knapsack solver, the runtime estimator and, for the roofline
/// estimator, the device.
class BudgetControls : public QWidget {
    Q_OBJECT
public:
    explicit BudgetControls(QWidget* parent = nullptr);

    /// Shows `settings` without emitting edited().
    void setSettings(const BudgetSettings& settings);
    const BudgetSettings& settings() const { return m_settings; }
    /// The graph sets its own budget (meta["memory_budget"]), which wins over the slider.
    void setBudgetOverridden(const QString& why);

    QSlider* slider() const { return m_slider; }
    QDoubleSpinBox* spinBox() const { return m_spin; }
    QComboBox* solverBox() const { return m_solver; }
    QComboBox* estimatorBox() const { return m_estimator; }
    QComboBox* deviceBox() const { return m_device; }

Q_SIGNALS:
    void edited(const remat::ui::BudgetSettings& settings);

private:
    void setBudget(double budget, bool fromSlider);
    void onChoiceChanged();
    void updateDeviceVisible();

    QSlider* m_slider;
    QDoubleSpinBox* m_spin;
    QComboBox* m_solver;
    QComboBox* m_estimator;
    QComboBox* m_device;
    QLabel* m_override;
    BudgetSettings m_settings;
    bool m_updating = false;
};

} // namespace remat::ui
