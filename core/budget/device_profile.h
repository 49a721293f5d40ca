// SPDX-License-Identifier: MIT
#pragma once

#include "graph/dtype.h"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace remat {

/// Peak rates of one device, for the roofline runtime estimator. Read from a small JSON file the
/// user can edit (resources/device_profiles.json).
struct DeviceProfile {
    std::string name;
    std::string description;
    double memoryBandwidth = 0; ///< bytes per second
    /// Host<->device copy rate per direction, bytes per second ("host_link_gb_per_s"); without it,
    /// torch 2.14's activation_offload_cpu_gpu_bw default of 50 GiB/s.
    double hostLinkBandwidth = kDefaultHostLinkBandwidth;
    static constexpr double kDefaultHostLinkBandwidth = 50.0 * 1024 * 1024 * 1024;
    std::map<Dtype, double> matmulFlops; ///< FLOP/s of matmul-class ops (tensor cores), by dtype
    std::map<Dtype, double> vectorFlops; ///< FLOP/s of every other op, by dtype

    /// The rate for `dtype`, or the float32 rate when the profile does not list it.
    double matmulRate(Dtype dtype) const;
    double vectorRate(Dtype dtype) const;
};

/// Seconds the activation-offloading pass spends copying `offloadedBytes`: each value goes to the
/// host after its last forward use and back before its first backward use, on the compute stream
/// (2.14's default, activation_offload_separate_stream off), so both copies add to the step time.
double offloadTransferSeconds(std::int64_t offloadedBytes, const DeviceProfile& device);

/// Reads every profile of a device-profile file. Throws remat::Error naming the file, and the
/// device and field at fault.
std::vector<DeviceProfile> readDeviceProfiles(const std::string& path);
/// The same for text already read; `path` is only used in messages.
std::vector<DeviceProfile> readDeviceProfilesText(const std::string& text, const std::string& path);

/// The profile called `name` (case-insensitive); throws remat::Error listing the known names.
const DeviceProfile& findDeviceProfile(const std::vector<DeviceProfile>& profiles, std::string_view name);

} // namespace remat
