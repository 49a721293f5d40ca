// SPDX-License-Identifier: MIT
#pragma once

#include <filesystem>
#include <optional>
#include <string_view>

namespace remat::cli {

/// PyTorch 1.13's min-cut seconds for `model` from the results table of the oracle's README (the
/// median of three calls on a quiet machine), or nullopt when the table has no such row. A graph
/// records the seconds of the run that traced it, which a loaded machine inflates (gpt_n48: 5.98 s
/// recorded beside 3.19 s quiet): a claim of "N times PyTorch" is made against the quiet figure.
std::optional<double> quietMinCutSeconds(const std::filesystem::path& readme, std::string_view model);

} // namespace remat::cli
