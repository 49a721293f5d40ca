// SPDX-License-Identifier: MIT
// libFuzzer target: the project file (GRAPH.remat: tags and settings) reader. It reads a path, so
// each input goes through one file in memory-backed /dev/shm.
#include "document/project_file.h"

#include <QFile>
#include <QString>
#include <unistd.h>

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static const QString path = QStringLiteral("/dev/shm/remat-fuzz-project-%1.remat").arg(getpid());
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return 0;
    file.write(reinterpret_cast<const char*>(data), qint64(size));
    file.close();
    QString error;
    remat::ui::ProjectFile::read(path, &error);
    return 0;
}
