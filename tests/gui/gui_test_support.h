// SPDX-License-Identifier: MIT
// Shared by the GUI tests: isolated settings and data folders, and copies of samples in a
// temporary folder so that project files never land beside the checked-in samples.
#pragma once

#include "resources.h"

#include <QDir>
#include <QFile>
#include <QStandardPaths>
#include <QString>
#include <QTemporaryDir>

namespace remat::ui::test {

inline void isolate()
{
    QStandardPaths::setTestModeEnabled(true);
    initResources();
}

inline QString samplePath(const char* name)
{
    return QStringLiteral(REMAT_SOURCE_DIR "/samples/") + QLatin1String(name);
}

inline QString oraclePath(const char* name)
{
    return QStringLiteral(REMAT_SHARED_DIR "/oracle/") + QLatin1String(name);
}

/// Copies a sample into `dir` and returns the copy's path.
inline QString copySample(const QTemporaryDir& dir, const char* name)
{
    const QString target = dir.filePath(QLatin1String(name));
    QFile::remove(target);
    QFile::copy(samplePath(name), target);
    QFile::setPermissions(target, QFile::ReadOwner | QFile::WriteOwner);
    return target;
}

} // namespace remat::ui::test
