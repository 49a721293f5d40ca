// SPDX-License-Identifier: MIT
#pragma once

#include "budget/device_profile.h"

#include <QString>

#include <vector>

namespace remat::ui {

/// The roofline estimator's device profiles, as read from their file.
struct DeviceProfileFile {
    QString path;
    std::vector<DeviceProfile> profiles;
    QString error; ///< why there are none (the core's message)
};

/// Where the profiles are read from: $REMAT_DEVICE_PROFILES, else device_profiles.json of the
/// data dir beside the installed program (as the command line does).
QString deviceProfilesPath();

/// Read on first use and kept (thread-safe; the file is small and edited rarely).
const DeviceProfileFile& deviceProfiles();

} // namespace remat::ui
