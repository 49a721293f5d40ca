// SPDX-License-Identifier: MIT
#pragma once

namespace remat::ui {

/// Registers the resources compiled into the static library (the bundled sample). Call once
/// after creating the application; the app and the GUI tests do.
void initResources();

} // namespace remat::ui
