// SPDX-License-Identifier: MIT
#include "model/atomic_write.h"

#include <QObject>
#include <QSaveFile>

namespace remat::ui {

QString writeFileAtomic(const QString& path, const QByteArray& bytes)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit())
        return QObject::tr("%1: cannot write: %2").arg(path, file.errorString());
    return {};
}

} // namespace remat::ui
