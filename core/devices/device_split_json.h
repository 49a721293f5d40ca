// SPDX-License-Identifier: MIT
#pragma once

#include "devices/device_split.h"

#include <string>

namespace remat::devices {

/// {"partitions": [{"id", "nodes", "logical_device_ids", "used_mem_bytes", "latency":
/// {"mem_latency_sec", "computer_latency_sec", "overall_latency_sec"}}], "critical_path_latency_sec"}
/// Strict JSON: throws remat::Error rather than write a non-finite latency.
std::string deviceSplitJson(const ForwardGraph& graph, const DeviceSplit& split);

} // namespace remat::devices
