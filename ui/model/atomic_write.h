// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QString>

namespace remat::ui {

/// Writes `bytes` to `path` through QSaveFile (a temporary file in the same folder, synced, then
/// renamed over `path`): a crash, a kill or a full disk leaves the old file or the new one, never
/// half of one. Returns an empty string, or what went wrong ("<path>: cannot write: <reason>").
QString writeFileAtomic(const QString& path, const QByteArray& bytes);

} // namespace remat::ui
