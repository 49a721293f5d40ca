// SPDX-License-Identifier: MIT
#pragma once

#include "document/project_file.h"

#include <QDateTime>
#include <QLockFile>
#include <QString>

#include <memory>
#include <optional>

namespace remat::ui {

/// The work of a session that ended without closing its graph (a crash, a kill, a power cut).
struct InterruptedSession {
    QString graphName; ///< as the window shows it
    QString projectPath; ///< the project file that session autosaved to
    qint64 pid = 0; ///< that session's process
    QDateTime started; ///< when it opened the graph
    QDateTime autosaved; ///< the project file's last write; invalid when there is none
    /// The project when that session began (what Discard goes back to); nullopt: there was none.
    std::optional<ProjectData> before;
    /// The project as autosaved (what Restore keeps); nullopt: there is none.
    std::optional<ProjectData> autosavedData;
};

enum class RecoveryChoice {
    Restore, ///< keep the autosaved work
    Discard, ///< go back to the project as it was when that session began
    Later, ///< decide another time: show the autosaved work, keep the record
};

/// Marks a graph as open in this process, so that an unclean end is noticed the next time the graph
/// opens. While a session runs, two files in the user's data folder name the graph: a lock
/// (QLockFile: this process's id, gone with the process) and a record (JSON, written atomically:
/// when the session began and the project as it was then). A clean end removes both; a record
/// whose lock no running process holds is a session that ended unexpectedly.
class SessionJournal {
public:
    /// `projectKey`: the graph's path (with the TORCH_TRACE graph id), as the project file's.
    explicit SessionJournal(const QString& projectKey);
    /// Ends the session (see end()).
    ~SessionJournal();
    SessionJournal(const SessionJournal&) = delete;
    SessionJournal& operator=(const SessionJournal&) = delete;

    /// Takes the graph's lock. Returns false when another running process holds it (`otherPid`
    /// says which) or the lock cannot be made (`error` says why).
    bool lock(qint64* otherPid, QString* error);
    /// With the lock held: the session that ended without removing its record, if there is one
    /// and it left work to restore (an empty record is removed). `error`: a record that cannot be read.
    std::optional<InterruptedSession> interrupted(const QString& graphName, QString* error);
    /// Removes the interrupted session's record (its work was restored or discarded).
    void forgetInterrupted();
    /// Starts this session's record: `before` is the project as opened (nullopt: none).
    bool begin(const QString& projectPath, const std::optional<ProjectData>& before, QString* error);
    /// A clean end: removes this session's record (one begin() wrote) and releases the lock. A record
    /// left by an interrupted session stays when this one never began (the choice was "later").
    void end();

    QString recordPath() const { return m_recordPath; }
    static QString folder();

private:
    QString m_projectKey;
    QString m_recordPath;
    std::unique_ptr<QLockFile> m_lock;
    bool m_begun = false;
};

} // namespace remat::ui
