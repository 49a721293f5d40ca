// SPDX-License-Identifier: MIT
#include "window/preferences_dialog.h"

#include <QColorDialog>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QPainter>
#include <QPixmap>
#include <QPushButton>
#include <QVBoxLayout>

namespace remat::ui {

PreferencesDialog::PreferencesDialog(const CanvasPalette& palette, QWidget* parent)
    : QDialog(parent)
    , m_palette(palette)
{
    setWindowTitle(tr("Preferences — Canvas Colours"));
    auto* layout = new QVBoxLayout(this);
    auto* form = new QFormLayout;
    const auto& entries = CanvasPalette::entries();
    for (std::size_t i = 0; i < entries.size(); ++i) {
        auto* button = new QPushButton(this);
        button->setMinimumWidth(110);
        connect(button, &QPushButton::clicked, this, [this, i] {
            const auto& entry = CanvasPalette::entries()[i];
            const QColor chosen = QColorDialog::getColor(m_palette.*entry.member, this, entry.label);
            if (chosen.isValid()) {
                m_palette.*entry.member = chosen;
                updateButtons();
            }
        });
        form->addRow(entries[i].label + QLatin1Char(':'), button);
        m_buttons.push_back(button);
    }
    layout->addLayout(form);
    auto* buttons = new QDialogButtonBox(
        QDialogButtonBox::Ok | QDialogButtonBox::Cancel | QDialogButtonBox::RestoreDefaults, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(buttons->button(QDialogButtonBox::RestoreDefaults), &QPushButton::clicked, this, [this] {
        m_palette = CanvasPalette::defaults();
        updateButtons();
    });
    layout->addWidget(buttons);
    updateButtons();
}

void PreferencesDialog::updateButtons()
{
    const auto& entries = CanvasPalette::entries();
    for (std::size_t i = 0; i < entries.size(); ++i) {
        const QColor c = m_palette.*entries[i].member;
        QPixmap swatch(28, 14);
        swatch.fill(c);
        m_buttons[i]->setIcon(swatch);
        m_buttons[i]->setText(c.name());
    }
}

} // namespace remat::ui
