// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/plan_analyst.h"

#include <QWidget>

class QComboBox;
class QDoubleSpinBox;
class QToolButton;

namespace remat::ui {

/// Picks one side of a comparison: the current plan, PyTorch's recorded decision, a memory budget,
/// the other rule set, the plan without the user's tags, or a plan file.
class PlanChoiceEditor : public QWidget {
    Q_OBJECT
public:
    explicit PlanChoiceEditor(PlanChoice::Kind initial, QWidget* parent = nullptr);

    PlanChoice choice() const;
    void setChoice(const PlanChoice& choice);
    QComboBox* kindBox() const { return m_kind; }

Q_SIGNALS:
    void changed();

private:
    void updateVisibility();

    QComboBox* m_kind;
    QDoubleSpinBox* m_budget;
    QToolButton* m_file;
    QString m_path;
};

} // namespace remat::ui
