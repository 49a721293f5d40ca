// SPDX-License-Identifier: MIT
#include "panels/plan_choice_editor.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QToolButton>

namespace remat::ui {

PlanChoiceEditor::PlanChoiceEditor(PlanChoice::Kind initial, QWidget* parent)
    : QWidget(parent)
    , m_kind(new QComboBox(this))
    , m_budget(new QDoubleSpinBox(this))
    , m_file(new QToolButton(this))
{
    using Kind = PlanChoice::Kind;
    m_kind->addItem(tr("Current plan"), static_cast<int>(Kind::Current));
    m_kind->addItem(tr("PyTorch's recorded decision"), static_cast<int>(Kind::PyTorch));
    m_kind->addItem(tr("Memory budget"), static_cast<int>(Kind::Budget));
    m_kind->addItem(tr("Other rule set"), static_cast<int>(Kind::OtherRules));
    m_kind->addItem(tr("Without my tags"), static_cast<int>(Kind::WithoutUserTags));
    m_kind->addItem(tr("Plan file…"), static_cast<int>(Kind::PlanFile));
    m_kind->setCurrentIndex(m_kind->findData(static_cast<int>(initial)));
    m_kind->setToolTip(tr("Other rule set: torch-1.13 against torch-2.14. Without my tags: the plan before "
                          "the tags you set in the app."));
    m_budget->setRange(0, 1);
    m_budget->setDecimals(3);
    m_budget->setSingleStep(0.05);
    m_budget->setValue(0.5);
    m_budget->setToolTip(tr("activation_memory_budget for this side"));
    m_file->setText(tr("Choose…"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_kind, 1);
    layout->addWidget(m_budget);
    layout->addWidget(m_file);
    connect(m_kind, &QComboBox::currentIndexChanged, this, [this] {
        updateVisibility();
        Q_EMIT changed();
    });
    connect(m_kind, &QComboBox::activated, this, [this] { // the user, not setChoice()
        if (choice().kind == PlanChoice::Kind::PlanFile && m_path.isEmpty())
            m_file->click();
    });
    connect(m_budget, &QDoubleSpinBox::valueChanged, this, &PlanChoiceEditor::changed);
    connect(m_file, &QToolButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Open a Plan"), m_path, tr("Plans (*.json);;All files (*)"));
        if (path.isEmpty())
            return;
        m_path = path;
        m_file->setText(QFileInfo(path).fileName());
        Q_EMIT changed();
    });
    updateVisibility();
}

PlanChoice PlanChoiceEditor::choice() const
{
    PlanChoice c;
    c.kind = static_cast<PlanChoice::Kind>(m_kind->currentData().toInt());
    c.budget = m_budget->value();
    c.path = m_path;
    return c;
}

void PlanChoiceEditor::setChoice(const PlanChoice& choice)
{
    const QSignalBlocker blocker(this);
    m_path = choice.path;
    if (!m_path.isEmpty())
        m_file->setText(QFileInfo(m_path).fileName());
    m_budget->setValue(choice.budget);
    m_kind->setCurrentIndex(m_kind->findData(static_cast<int>(choice.kind)));
    updateVisibility();
}

void PlanChoiceEditor::updateVisibility()
{
    const PlanChoice::Kind kind = static_cast<PlanChoice::Kind>(m_kind->currentData().toInt());
    m_budget->setVisible(kind == PlanChoice::Kind::Budget);
    m_file->setVisible(kind == PlanChoice::Kind::PlanFile);
}

} // namespace remat::ui
