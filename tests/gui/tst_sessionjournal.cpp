// SPDX-License-Identifier: MIT
// The session journal that notices an unclean end: a clean end leaves nothing, a record without
// a live lock holder is an interrupted session (with the project it began with and the autosave),
// a session another process runs is not, and an unchanged or foreign record is dropped.
#include "document/session_journal.h"
#include "gui_test_support.h"

#include <QCoreApplication>
#include <QDir>
#include <QTest>

using namespace remat;
using namespace remat::ui;

namespace {

bool writeFile(const QString& path, const QByteArray& bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

QStringList journalFiles()
{
    return QDir(SessionJournal::folder()).entryList(QDir::Files);
}

ProjectData tagged(std::map<std::string, CheckpointPolicy> tags)
{
    ProjectData data;
    data.tags = std::move(tags);
    return data;
}

} // namespace

class TestSessionJournal : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_graph;
    QString m_project;

    /// What a killed session leaves: its record, a lock no running process holds, and its autosave.
    void leaveAnInterruptedSession(const std::optional<ProjectData>& before, const ProjectData& autosaved)
    {
        QByteArray record;
        {
            SessionJournal session(m_graph);
            qint64 other = 0;
            QString error;
            QVERIFY(session.lock(&other, &error));
            QVERIFY2(session.begin(m_project, before, &error), qPrintable(error));
            record = test::readFile(session.recordPath());
            QVERIFY(!record.isEmpty());
        } // a clean end removes both files...
        QVERIFY(journalFiles().isEmpty());
        // ...a kill does not: the record stays (the dead process's lock, which QLockFile finds stale, is
        // left out here; tst_crashrecovery kills a real app).
        QVERIFY(writeFile(SessionJournal(m_graph).recordPath(), record));
        QString error;
        QVERIFY2(ProjectFile::write(m_project, m_graph, autosaved, &error), qPrintable(error));
    }

private Q_SLOTS:
    void initTestCase()
    {
        test::isolate();
        QDir(SessionJournal::folder()).removeRecursively();
        m_graph = m_dir.filePath(QStringLiteral("g.json"));
        m_project = m_graph + QStringLiteral(".remat");
    }

    void cleanup()
    {
        QDir(SessionJournal::folder()).removeRecursively();
        QFile::remove(m_project);
    }

    void aCleanEndLeavesNothing()
    {
        SessionJournal session(m_graph);
        qint64 other = 0;
        QString error;
        QVERIFY(session.lock(&other, &error));
        QVERIFY(!session.interrupted(QStringLiteral("g.json"), &error));
        QVERIFY2(session.begin(m_project, std::nullopt, &error), qPrintable(error));
        QCOMPARE(journalFiles().size(), 2); // the record and the lock
        QVERIFY(journalFiles().contains(QFileInfo(session.recordPath()).fileName()));
        session.end();
        QVERIFY(journalFiles().isEmpty());

        SessionJournal next(m_graph);
        QVERIFY(next.lock(&other, &error));
        QVERIFY(!next.interrupted(QStringLiteral("g.json"), &error));
        QVERIFY(error.isEmpty());
    }

    void aRecordWithoutALiveLockIsAnInterruptedSession()
    {
        const ProjectData before = tagged({{"relu", CheckpointPolicy::MustSave}});
        const ProjectData autosaved
            = tagged({{"relu", CheckpointPolicy::MustSave}, {"addmm", CheckpointPolicy::MustRecompute}});
        const QDateTime start = QDateTime::currentDateTime().addSecs(-1);
        leaveAnInterruptedSession(before, autosaved);

        SessionJournal session(m_graph);
        qint64 other = 0;
        QString error;
        QVERIFY2(session.lock(&other, &error), qPrintable(error));
        const auto found = session.interrupted(QStringLiteral("g.json"), &error);
        QVERIFY2(found, qPrintable(error));
        QCOMPARE(found->graphName, QStringLiteral("g.json"));
        QCOMPARE(found->projectPath, m_project);
        QCOMPARE(found->pid, QCoreApplication::applicationPid());
        QVERIFY(found->started >= start && found->started <= QDateTime::currentDateTime());
        QVERIFY(found->autosaved.isValid());
        QVERIFY(found->before == before);
        QVERIFY(found->autosavedData == autosaved);
        // Asked again before it is settled, it is still there.
        QVERIFY(session.interrupted(QStringLiteral("g.json"), &error));
        session.forgetInterrupted();
        QVERIFY(!session.interrupted(QStringLiteral("g.json"), &error));
    }

    void aSessionThatBeganWithoutAProjectRemembersThat()
    {
        leaveAnInterruptedSession(std::nullopt, tagged({{"addmm", CheckpointPolicy::MustRecompute}}));
        SessionJournal session(m_graph);
        qint64 other = 0;
        QString error;
        QVERIFY(session.lock(&other, &error));
        const auto found = session.interrupted(QStringLiteral("g.json"), &error);
        QVERIFY2(found, qPrintable(error));
        QVERIFY(!found->before);
    }

    void anUnchangedSessionIsForgottenQuietly()
    {
        const ProjectData same = tagged({{"relu", CheckpointPolicy::MustSave}});
        leaveAnInterruptedSession(same, same);
        SessionJournal session(m_graph);
        qint64 other = 0;
        QString error;
        QVERIFY(session.lock(&other, &error));
        QVERIFY(!session.interrupted(QStringLiteral("g.json"), &error));
        QVERIFY(error.isEmpty());
        QVERIFY(!QFile::exists(session.recordPath()));
    }

    void aRunningSessionIsNotInterrupted()
    {
        SessionJournal running(m_graph);
        qint64 other = 0;
        QString error;
        QVERIFY(running.lock(&other, &error));
        QVERIFY(running.begin(m_project, std::nullopt, &error));

        SessionJournal second(m_graph);
        QVERIFY(!second.lock(&other, &error));
        QCOMPARE(other, QCoreApplication::applicationPid()); // who has it open
        QVERIFY(error.isEmpty());
        QVERIFY(QFile::exists(running.recordPath()));
    }

    void aForeignRecordIsRemovedWithAMessage()
    {
        SessionJournal session(m_graph);
        qint64 other = 0;
        QString error;
        QVERIFY(session.lock(&other, &error));
        QVERIFY(writeFile(session.recordPath(), "{\"format\": \"something-else\"}"));
        QVERIFY(!session.interrupted(QStringLiteral("g.json"), &error));
        QVERIFY2(error.startsWith(session.recordPath() + QStringLiteral(": not a session record")),
            qPrintable(error));
        QVERIFY(!QFile::exists(session.recordPath()));
    }
};

QTEST_MAIN(TestSessionJournal)
#include "tst_sessionjournal.moc"
