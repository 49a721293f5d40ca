// SPDX-License-Identifier: MIT
#include "cli/oracle_timings.h"

#include <charconv>
#include <fstream>
#include <string>
#include <vector>

namespace remat::cli {
namespace {

/// The trimmed cells of a Markdown table row "| a | b |".
std::vector<std::string_view> cells(std::string_view line)
{
    std::vector<std::string_view> out;
    if (!line.starts_with('|'))
        return out;
    line.remove_prefix(1);
    for (auto bar = line.find('|'); bar != std::string_view::npos; bar = line.find('|')) {
        std::string_view cell = line.substr(0, bar);
        while (!cell.empty() && cell.front() == ' ')
            cell.remove_prefix(1);
        while (!cell.empty() && cell.back() == ' ')
            cell.remove_suffix(1);
        out.push_back(cell);
        line.remove_prefix(bar + 1);
    }
    return out;
}

} // namespace

std::optional<double> quietMinCutSeconds(const std::filesystem::path& readme, std::string_view model)
{
    std::ifstream in(readme);
    std::string line;
    std::size_t column = 0; // of "min-cut s" in the current table; 0 outside the results table
    while (std::getline(in, line)) {
        const auto row = cells(line);
        if (row.empty()) {
            column = 0;
            continue;
        }
        if (row[0] == "model") {
            column = 0;
            for (std::size_t i = 1; i < row.size(); ++i) {
                if (row[i] == "min-cut s")
                    column = i;
            }
            continue;
        }
        if (column == 0 || row[0] != model || row.size() <= column)
            continue;
        double seconds = 0;
        const std::string_view text = row[column];
        if (std::from_chars(text.data(), text.data() + text.size(), seconds).ec == std::errc {}
            && seconds > 0)
            return seconds;
    }
    return std::nullopt;
}

} // namespace remat::cli
