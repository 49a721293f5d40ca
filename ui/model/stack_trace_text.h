// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

#include <string_view>

namespace remat::ui {

/// A node's recorded Python stack (`stack_trace`) for a narrow panel: each frame as
/// "bert/modeling_bert.py:88 in forward" (the file's folder and name, not the whole site-packages
/// path) over its line of code. Lines that are not frames are kept as code. HTML.
QString stackTraceHtml(std::string_view trace);

} // namespace remat::ui
