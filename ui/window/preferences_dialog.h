// SPDX-License-Identifier: MIT
#pragma once

#include "canvas/canvas_palette.h"

#include <QDialog>

#include <vector>

class QPushButton;

namespace remat::ui {

/// Canvas colours: one button per colour, and a reset to the defaults.
class PreferencesDialog : public QDialog {
    Q_OBJECT
public:
    explicit PreferencesDialog(const CanvasPalette& palette, QWidget* parent = nullptr);
    CanvasPalette palette() const { return m_palette; }

private:
    void updateButtons();

    CanvasPalette m_palette;
    std::vector<QPushButton*> m_buttons;
};

} // namespace remat::ui
