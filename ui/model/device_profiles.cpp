// SPDX-License-Identifier: MIT
#include "model/device_profiles.h"

#include "graph/error.h"
#include "install/data_dir.h"

#include <QObject>

namespace remat::ui {

QString deviceProfilesPath()
{
    const QString env = qEnvironmentVariable("REMAT_DEVICE_PROFILES");
    if (!env.isEmpty())
        return env;
    return QString::fromStdString(dataFile("device_profiles.json").string());
}

const DeviceProfileFile& deviceProfiles()
{
    static const DeviceProfileFile file = [] {
        DeviceProfileFile f;
        f.path = deviceProfilesPath();
        try {
            f.profiles = readDeviceProfiles(f.path.toStdString());
            if (f.profiles.empty())
                f.error = QObject::tr("%1: lists no devices").arg(f.path);
        } catch (const Error& e) {
            f.error = QString::fromUtf8(e.what());
        }
        return f;
    }();
    return file;
}

} // namespace remat::ui
