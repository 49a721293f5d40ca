// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

#include <string_view>

namespace remat::ui {

/// Core names ("min-cut", "torch-1.13") are UTF-8 string views.
inline QString toQString(std::string_view text)
{
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

} // namespace remat::ui
