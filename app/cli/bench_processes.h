// SPDX-License-Identifier: MIT
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace remat::cli {

/// `bench --processes`: times the whole command `remat-explorer partition GRAPH --rules R` as a
/// user runs it (exec, dynamic loading, reading, partitioning, printing, exit) as separate
/// processes, next to /bin/true started the same way in the same run, and compares it with
/// PyTorch's recorded partitioner seconds (R: the rules of the PyTorch that recorded them).
int benchProcesses(const std::vector<std::string>& paths, int repeat, std::ostream& out);

} // namespace remat::cli
