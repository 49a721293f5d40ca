// SPDX-License-Identifier: MIT
#pragma once

#include <QRect>

class QWidget;

namespace remat::ui {

/// `window` shrunk to fit `available` and moved back inside it (the least move that does).
QRect fitInside(const QRect& window, const QRect& available);

/// Keeps a top-level window on its screen: a geometry saved on a larger screen (or the default size
/// on a small one) is shrunk to the screen's available area and moved back onto it. A maximized or
/// full-screen window is left to the window system.
void keepOnScreen(QWidget* window);

/// `content` in a frameless scroll area that fills the space it gets and scrolls only when that is
/// less than `content` needs: a tall dock then no longer makes the window taller than a small screen.
QWidget* scrollableWhenShort(QWidget* content);

} // namespace remat::ui
