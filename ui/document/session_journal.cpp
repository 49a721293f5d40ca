// SPDX-License-Identifier: MIT
#include "document/session_journal.h"

#include "model/atomic_write.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QObject>
#include <QStandardPaths>

namespace remat::ui {
namespace {

constexpr int kRecordVersion = 1;
const QLatin1String kRecordFormat("remat-explorer-session");

} // namespace

QString SessionJournal::folder()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/recovery");
}

SessionJournal::SessionJournal(const QString& projectKey)
    : m_projectKey(projectKey)
    , m_recordPath(
          folder() + QLatin1Char('/') + ProjectFile::storageName(projectKey) + QStringLiteral(".session"))
{ }

SessionJournal::~SessionJournal()
{
    end();
}

bool SessionJournal::lock(qint64* otherPid, QString* error)
{
    *otherPid = 0;
    QDir().mkpath(folder());
    m_lock = std::make_unique<QLockFile>(
        folder() + QLatin1Char('/') + ProjectFile::storageName(m_projectKey) + QStringLiteral(".lock"));
    // Only a dead process makes the lock stale, never its age: a session may last for days.
    m_lock->setStaleLockTime(0);
    if (m_lock->tryLock(0))
        return true;
    if (m_lock->error() == QLockFile::LockFailedError) {
        QString host;
        QString app;
        m_lock->getLockInfo(otherPid, &host, &app);
    } else {
        *error = QObject::tr("%1: cannot lock: %2")
                     .arg(m_lock->fileName(),
                         m_lock->error() == QLockFile::PermissionError ? QObject::tr("permission denied")
                                                                       : QObject::tr("unknown error"));
    }
    m_lock.reset();
    return false;
}

std::optional<InterruptedSession> SessionJournal::interrupted(const QString& graphName, QString* error)
{
    QFile file(m_recordPath);
    if (!file.exists())
        return std::nullopt;
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QObject::tr("%1: cannot read: %2").arg(m_recordPath, file.errorString());
        return std::nullopt;
    }
    QJsonParseError parseError;
    const QJsonObject root = QJsonDocument::fromJson(file.readAll(), &parseError).object();
    file.close();
    InterruptedSession session;
    session.graphName = graphName;
    session.projectPath = root.value(QLatin1String("project")).toString();
    session.pid = root.value(QLatin1String("pid")).toInteger();
    session.started
        = QDateTime::fromString(root.value(QLatin1String("started")).toString(), Qt::ISODateWithMs);
    const QJsonValue before = root.value(QLatin1String("before"));
    if (parseError.error != QJsonParseError::NoError
        || root.value(QLatin1String("format")).toString() != kRecordFormat || session.projectPath.isEmpty()
        || !session.started.isValid() || !(before.isNull() || before.isObject())) {
        // Records are written whole, so this one was not written by us: nothing in it to restore.
        *error = QObject::tr("%1: not a session record; removed").arg(m_recordPath);
        QFile::remove(m_recordPath);
        return std::nullopt;
    }
    if (before.isObject()) {
        session.before = ProjectFile::decode(before.toObject(), m_recordPath, error);
        if (!session.before) {
            QFile::remove(m_recordPath);
            return std::nullopt;
        }
    }
    const QFileInfo project(session.projectPath);
    if (project.exists()) {
        session.autosavedData = ProjectFile::read(session.projectPath, error);
        if (!session.autosavedData)
            return std::nullopt; // the reader says why; the record stays for when it can be read
        session.autosaved = project.lastModified();
    }
    if (session.autosavedData == session.before) {
        forgetInterrupted(); // that session changed nothing
        return std::nullopt;
    }
    return session;
}

void SessionJournal::forgetInterrupted()
{
    QFile::remove(m_recordPath);
}

bool SessionJournal::begin(
    const QString& projectPath, const std::optional<ProjectData>& before, QString* error)
{
    QJsonObject root;
    root.insert(QLatin1String("format"), kRecordFormat);
    root.insert(QLatin1String("version"), kRecordVersion);
    root.insert(QLatin1String("pid"), QCoreApplication::applicationPid());
    root.insert(QLatin1String("started"), QDateTime::currentDateTime().toString(Qt::ISODateWithMs));
    root.insert(QLatin1String("graph"), m_projectKey);
    root.insert(QLatin1String("project"), projectPath);
    root.insert(QLatin1String("before"),
        before ? QJsonValue(ProjectFile::encode(m_projectKey, *before)) : QJsonValue());
    *error = writeFileAtomic(m_recordPath, QJsonDocument(root).toJson(QJsonDocument::Indented));
    m_begun = error->isEmpty();
    return m_begun;
}

void SessionJournal::end()
{
    if (m_begun)
        QFile::remove(m_recordPath);
    m_begun = false;
    m_lock.reset(); // unlocks
}

} // namespace remat::ui
