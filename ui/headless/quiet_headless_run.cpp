// SPDX-License-Identifier: MIT
#include "headless/quiet_headless_run.h"

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QString>
#include <QtGlobal>

#include <cerrno>
#include <sys/stat.h>
#include <unistd.h>

namespace remat::ui {
namespace {

void usePrivateRuntimeDirectory()
{
    if (!qEnvironmentVariableIsEmpty("XDG_RUNTIME_DIR"))
        return;
    // One we do not own, or others can enter, is left to Qt, which then says why.
    const QByteArray path
        = QFile::encodeName(QDir::tempPath() + QStringLiteral("/runtime-%1").arg(::getuid()));
    if (::mkdir(path.constData(), 0700) != 0 && errno != EEXIST)
        return;
    struct stat info { };
    if (::lstat(path.constData(), &info) != 0 || !S_ISDIR(info.st_mode) || info.st_uid != ::getuid()
        || (info.st_mode & 0777) != 0700)
        return;
    qputenv("XDG_RUNTIME_DIR", path);
}

QtMessageHandler previousHandler = nullptr;

void dropPlatformNotices(QtMsgType type, const QMessageLogContext& context, const QString& message)
{
    // The offscreen platform has no window manager to pass sizes to or raise windows for
    // ("propagateSizeHints()", "raise()"); nothing is wrong with the picture.
    if (type == QtWarningMsg && message.startsWith(QLatin1String("This plugin does not support ")))
        return;
    previousHandler(type, context, message);
}

} // namespace

void quietHeadlessRun()
{
    usePrivateRuntimeDirectory();
    if (!previousHandler)
        previousHandler = qInstallMessageHandler(dropPlatformNotices);
}

} // namespace remat::ui
