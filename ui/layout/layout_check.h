// SPDX-License-Identifier: MIT
#pragma once

#include "layout/layout_types.h"

#include <QString>

namespace remat::ui {

/// Why `layout` cannot be drawn for `request` (counts that differ, boxes of another size,
/// coordinates that are not finite, broken curves), or an empty string when it fits. A layout
/// read back from disk is checked with this before anything indexes into it.
QString layoutMismatch(const LayoutRequest& request, const LayoutResult& layout);

} // namespace remat::ui
