// SPDX-License-Identifier: MIT
#pragma once

#include "io/torch_trace.h"

#include <optional>
#include <string>

namespace remat {

/// The compiled graphs to choose from in a file or folder that holds several: a TORCH_TRACE log or
/// folder (every one, as `info` lists them), or a TORCH_LOGS capture with the joint graphs of two
/// or more compile ids. nullopt for anything else, which opens as it is. Throws remat::Error for an
/// unreadable file or a damaged log.
std::optional<trace::TraceListing> listCompiledGraphs(const std::string& path);

/// Same, for a file's text already read (`path` names it in messages); never a folder.
std::optional<trace::TraceListing> listCompiledGraphsInText(const std::string& text, const std::string& path);

} // namespace remat
