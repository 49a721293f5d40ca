// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

namespace remat::ui {

/// A DOT string literal: quotes and backslashes escaped.
QString dotQuoted(const QString& text);

/// The opening of every lesson picture: its direction ("TB" or "LR") and the shared look.
QString dotHeader(const QString& rankdir = QStringLiteral("TB"));

} // namespace remat::ui
