// SPDX-License-Identifier: MIT
// Work is never lost: the real desktop program, started as a child on a copy of a sample, tags
// nodes one after another and is killed (SIGKILL) in the middle; started again, it offers the
// autosaved tags (--restore answers), and the plan it exports is the one those tags make. Discard
// goes back to the project the killed session began with; a clean end (SIGTERM) offers nothing.
#include "document/project_file.h"
#include "gui_test_support.h"
#include "model/policy_names.h"

#include <QDirIterator>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTest>

using namespace remat;
using namespace remat::ui;

namespace {

constexpr int kTimeoutMs = 120'000; // a loaded 2-core machine
const QString kGui = QStringLiteral(REMAT_GUI_PROGRAM);
const QString kCli = QStringLiteral(REMAT_CLI_PROGRAM);

/// Tags the children set one by one, each changing the plan of mlp.json.
const QStringList kSessionTags = {QStringLiteral("relu=MUST_RECOMPUTE"), QStringLiteral("addmm=MUST_SAVE"),
    QStringLiteral("relu_1=MUST_RECOMPUTE"), QStringLiteral("addmm_1=MUST_SAVE"),
    QStringLiteral("t_3=MUST_RECOMPUTE"), QStringLiteral("t_7=MUST_RECOMPUTE")};
constexpr int kTagDelayMs = 1000; // autosave runs 400 ms after an edit: one write per tag

/// A home of its own for the children: settings, data (projects, recovery records) and caches.
class ChildHome {
public:
    ChildHome()
    {
        QDir(m_dir.path()).mkpath(QStringLiteral("runtime"));
        QDir(m_dir.path()).mkpath(QStringLiteral("tmp"));
        QFile::setPermissions(m_dir.filePath(QStringLiteral("runtime")),
            QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        m_env.insert(QStringLiteral("XDG_DATA_HOME"), m_dir.filePath(QStringLiteral("data")));
        m_env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_dir.filePath(QStringLiteral("config")));
        m_env.insert(QStringLiteral("XDG_CACHE_HOME"), m_dir.filePath(QStringLiteral("cache")));
        m_env.insert(QStringLiteral("XDG_RUNTIME_DIR"), m_dir.filePath(QStringLiteral("runtime")));
        m_env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        m_env.insert(QStringLiteral("TMPDIR"), m_dir.filePath(QStringLiteral("tmp")));
    }

    const QProcessEnvironment& environment() const { return m_env; }

    /// The session records in the children's data folder.
    QStringList sessionRecords() const
    {
        QStringList records;
        QDirIterator it(m_dir.filePath(QStringLiteral("data")), {QStringLiteral("*.session")}, QDir::Files,
            QDirIterator::Subdirectories);
        while (it.hasNext())
            records << it.next();
        return records;
    }

    /// What the children left in their temporary folder (TMPDIR).
    QStringList leftInTemp() const
    {
        return QDir(m_dir.filePath(QStringLiteral("tmp")))
            .entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden);
    }

private:
    QTemporaryDir m_dir;
    QProcessEnvironment m_env = QProcessEnvironment::systemEnvironment();
};

struct Run {
    int exitCode = -1;
    QString out;
    QString err;
};

Run run(const ChildHome& home, const QString& program, const QStringList& arguments)
{
    QProcess child;
    child.setProcessEnvironment(home.environment());
    child.start(program, arguments);
    Run result;
    if (!child.waitForFinished(kTimeoutMs)) {
        child.kill();
        child.waitForFinished();
        result.err = QStringLiteral("timed out: ") + arguments.join(QLatin1Char(' '));
        return result;
    }
    result.exitCode = child.exitStatus() == QProcess::NormalExit ? child.exitCode() : -1;
    result.out = QString::fromLocal8Bit(child.readAllStandardOutput());
    result.err = QString::fromLocal8Bit(child.readAllStandardError());
    return result;
}

std::map<std::string, CheckpointPolicy> projectTags(const QString& graph)
{
    QString error;
    const auto data = ProjectFile::read(graph + QStringLiteral(".remat"), &error);
    return data ? data->tags : std::map<std::string, CheckpointPolicy> {};
}

QStringList tagArguments(const std::map<std::string, CheckpointPolicy>& tags)
{
    QStringList arguments;
    for (const auto& [name, policy] : tags)
        arguments << QStringLiteral("--tag")
                  << QString::fromStdString(name) + QLatin1Char('=') + QLatin1String(policyName(policy));
    return arguments;
}

QStringList savedValuesOf(const QByteArray& planJson)
{
    QStringList saved;
    for (const QJsonValue& v :
        QJsonDocument::fromJson(planJson).object().value(QLatin1String("saved_values")).toArray())
        saved << v.toString();
    return saved;
}

/// The saved values of the command line's plan for these tags: what the app's plan must be.
QStringList expectedSavedValues(
    const ChildHome& home, const QString& graph, const std::map<std::string, CheckpointPolicy>& tags)
{
    const Run cli = run(home, kCli,
        QStringList {QStringLiteral("partition"), graph, QStringLiteral("--json")} + tagArguments(tags));
    return cli.exitCode == 0 ? savedValuesOf(cli.out.toUtf8())
                             : QStringList {QStringLiteral("(failed: ") + cli.err + QLatin1Char(')')};
}

/// Starts the app tagging kSessionTags one by one in a window, waits until it has autosaved
/// `autosaves` of them beyond `already`, and kills it (SIGKILL): no chance to clean up.
/// Returns the tags the project file holds at the kill.
std::map<std::string, CheckpointPolicy> killWhileTagging(
    const ChildHome& home, const QString& graph, std::size_t already, std::size_t autosaves)
{
    QProcess app;
    app.setProcessEnvironment(home.environment());
    app.start(
        kGui, QStringList {graph, QStringLiteral("--tag-delay"), QString::number(kTagDelayMs)} + [] {
            QStringList arguments;
            for (const QString& tag : kSessionTags)
                arguments << QStringLiteral("--tag") << tag;
            return arguments;
        }());
    if (!app.waitForStarted(kTimeoutMs))
        return {};
    QElapsedTimer clock;
    clock.start();
    while (projectTags(graph).size() < already + autosaves && clock.elapsed() < kTimeoutMs
        && app.state() == QProcess::Running)
        QTest::qWait(20);
    app.kill();
    app.waitForFinished(kTimeoutMs);
    const auto tags = projectTags(graph);
    qInfo("killed after %zu of %lld tags were autosaved (%s)", tags.size() - already,
        static_cast<long long>(kSessionTags.size()),
        qPrintable(QString::fromLocal8Bit(app.readAllStandardOutput()).simplified()));
    return tags;
}

} // namespace

class TestCrashRecovery : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        test::isolate();
        QVERIFY2(QFileInfo(kGui).isExecutable(), qPrintable(kGui));
        QVERIFY2(QFileInfo(kCli).isExecutable(), qPrintable(kCli));
    }

    void killedWhileTaggingOffersTheAutosavedTags()
    {
        ChildHome home;
        QTemporaryDir dir;
        const QString graph = test::copySample(dir, "mlp.json");
        const auto autosaved = killWhileTagging(home, graph, 0, 2);
        QVERIFY2(autosaved.size() >= 2, "the app autosaved no tags before it was killed");
        QVERIFY2(autosaved.size() < static_cast<std::size_t>(kSessionTags.size()),
            "the kill came after the tagging had finished");
        QCOMPARE(home.sessionRecords().size(), 1); // the killed session's record stayed
        // A kill leaves nothing in /tmp: the app made no temporary folder it had no use for.
        QVERIFY2(home.leftInTemp().isEmpty(), qPrintable(home.leftInTemp().join(QStringLiteral(", "))));

        // Without an answer, a headless run shows the autosaved work and keeps the question.
        const QString later = dir.filePath(QStringLiteral("later.json"));
        const Run ask = run(home, kGui, {graph, QStringLiteral("--export-plan"), later});
        QVERIFY2(ask.exitCode == 0, qPrintable(ask.err));
        QVERIFY2(ask.err.contains(QStringLiteral("ended unexpectedly while mlp.json was open")),
            qPrintable(ask.err));
        QVERIFY2(ask.err.contains(QStringLiteral("--restore yes|no")), qPrintable(ask.err));
        QCOMPARE(home.sessionRecords().size(), 1);

        // Restore: the offer says what it restores; the app's plan is the one the autosaved tags make.
        const QString plan = dir.filePath(QStringLiteral("plan.json"));
        const Run restore = run(home, kGui,
            {graph, QStringLiteral("--restore"), QStringLiteral("yes"), QStringLiteral("--export-plan"),
                plan});
        QVERIFY2(restore.exitCode == 0, qPrintable(restore.err));
        const QString tags = QString::number(autosaved.size());
        QVERIFY2(restore.out.contains(QStringLiteral("ended unexpectedly while mlp.json was open")),
            qPrintable(restore.out));
        QVERIFY2(restore.out.contains(QStringLiteral("Autosave kept that session's work at ")),
            qPrintable(restore.out));
        QVERIFY2(restore.out.contains(QStringLiteral(": %1 tags (%1 added since it began)").arg(tags)),
            qPrintable(restore.out));
        QVERIFY2(
            restore.out.contains(QStringLiteral("Discard goes back to no tags")), qPrintable(restore.out));
        QVERIFY2(
            restore.out.contains(QStringLiteral("restored: %1 tags").arg(tags)), qPrintable(restore.out));
        QCOMPARE(projectTags(graph), autosaved);
        const QStringList saved = savedValuesOf(test::readFile(plan));
        QCOMPARE(saved, expectedSavedValues(home, graph, autosaved));
        QVERIFY(saved != expectedSavedValues(home, graph, {})); // the tags matter to the plan
        QVERIFY(home.sessionRecords().isEmpty());

        // Settled: the next open asks nothing and keeps the tags.
        const QString again = dir.filePath(QStringLiteral("again.json"));
        const Run next = run(home, kGui, {graph, QStringLiteral("--export-plan"), again});
        QVERIFY2(next.exitCode == 0, qPrintable(next.err));
        QVERIFY2(!next.err.contains(QStringLiteral("unexpectedly"))
                && !next.out.contains(QStringLiteral("unexpectedly")),
            qPrintable(next.err));
        QCOMPARE(savedValuesOf(test::readFile(again)), saved);
    }

    void discardGoesBackToTheProjectTheSessionBeganWith()
    {
        ChildHome home;
        QTemporaryDir dir;
        const QString graph = test::copySample(dir, "mlp.json");
        // The project as an earlier, cleanly closed session left it: one tag.
        ProjectData before;
        before.tags["t_7"] = CheckpointPolicy::MustRecompute;
        QString error;
        QVERIFY2(
            ProjectFile::write(graph + QStringLiteral(".remat"), graph, before, &error), qPrintable(error));

        const auto autosaved = killWhileTagging(home, graph, 1, 2);
        QVERIFY2(autosaved.size() >= 3, "the app autosaved no new tags before it was killed");
        QVERIFY(autosaved != before.tags);

        const QString plan = dir.filePath(QStringLiteral("plan.json"));
        const Run discard = run(home, kGui,
            {graph, QStringLiteral("--restore"), QStringLiteral("no"), QStringLiteral("--export-plan"),
                plan});
        QVERIFY2(discard.exitCode == 0, qPrintable(discard.err));
        QVERIFY2(discard.out.contains(QStringLiteral("%1 tags (%2 added since it began)")
                                          .arg(autosaved.size())
                                          .arg(autosaved.size() - 1)),
            qPrintable(discard.out));
        QVERIFY2(discard.out.contains(QStringLiteral("Discard goes back to the 1 tag you had")),
            qPrintable(discard.out));
        QVERIFY2(discard.out.contains(QStringLiteral("discarded: back to 1 tag")), qPrintable(discard.out));
        QCOMPARE(projectTags(graph), before.tags);
        QCOMPARE(savedValuesOf(test::readFile(plan)), expectedSavedValues(home, graph, before.tags));
        QVERIFY(home.sessionRecords().isEmpty());
    }

    void aCleanEndOffersNothing()
    {
        ChildHome home;
        QTemporaryDir dir;
        const QString graph = test::copySample(dir, "mlp.json");
        QProcess app;
        app.setProcessEnvironment(home.environment());
        app.start(kGui,
            {graph, QStringLiteral("--tag"), kSessionTags[0], QStringLiteral("--tag"), kSessionTags[1]});
        QVERIFY(app.waitForStarted(kTimeoutMs));
        QTRY_VERIFY_WITH_TIMEOUT(
            QString::fromLocal8Bit(app.peek(1 << 16)).count(QStringLiteral("tagged")) == 2
                || app.state() != QProcess::Running,
            kTimeoutMs);
        QCOMPARE(home.sessionRecords().size(), 1); // the open graph's session is recorded
        // SIGTERM (a logout, `kill PID`) closes the window as File > Quit does: the last tag, whose
        // autosave may still be pending, is saved, and the session ends cleanly.
        app.terminate();
        QVERIFY(app.waitForFinished(kTimeoutMs));
        QCOMPARE(app.exitStatus(), QProcess::NormalExit);
        QCOMPARE(app.exitCode(), 0);
        QCOMPARE(projectTags(graph).size(), std::size_t(2));
        QVERIFY(home.sessionRecords().isEmpty());

        const Run next = run(
            home, kGui, {graph, QStringLiteral("--export-plan"), dir.filePath(QStringLiteral("plan.json"))});
        QVERIFY2(next.exitCode == 0, qPrintable(next.err));
        QVERIFY2(!next.err.contains(QStringLiteral("unexpectedly")), qPrintable(next.err));
    }
};

QTEST_GUILESS_MAIN(TestCrashRecovery)
#include "tst_crashrecovery.moc"
