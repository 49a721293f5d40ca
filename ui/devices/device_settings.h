// SPDX-License-Identifier: MIT
#pragma once

#include "devices/device_config.h"

#include <cstdint>
#include <vector>

namespace remat::ui {

/// What the user set up in the devices panel: one memory size per device (logical ids 0.. in
/// this order), the mode, the transfer rate and host saturation.
struct DeviceSettings {
    std::vector<std::int64_t> deviceBytes;
    devices::PartitionMode mode = devices::PartitionMode::SizeBased;
    double transferRateBytesPerSec = 0.0;
    bool saturateHost = false;

    bool operator==(const DeviceSettings&) const = default;
};

} // namespace remat::ui
