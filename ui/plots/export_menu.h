// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

#include <functional>

class QMenu;
class QWidget;

namespace remat::ui {

/// Fills a dock's Export menu: the plot as PNG, SVG or PDF, the data as CSV. Each entry asks for a
/// file (suggesting `suggestedBase` + suffix), calls `exportTo(path)` (which returns an error or
/// ""), shows a dialog on failure and calls `done` with a status message on success.
void fillExportMenu(QMenu* menu, QWidget* dialogParent, const QString& suggestedBase, bool enabled,
    const std::function<QString(const QString&)>& exportTo, const std::function<void(const QString&)>& done);

} // namespace remat::ui
