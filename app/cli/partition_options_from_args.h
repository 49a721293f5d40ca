// SPDX-License-Identifier: MIT
#pragma once

#include "cli/arguments.h"
#include "partition/partition_options.h"

#include <set>
#include <string>

namespace remat::cli {

/// --partitioner, --rules, --compiler: the options every partitioning command shares.
const std::set<std::string>& partitionOptionNames();
PartitionOptions partitionOptionsFrom(const Arguments& args);

} // namespace remat::cli
