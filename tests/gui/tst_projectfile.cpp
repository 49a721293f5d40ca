// SPDX-License-Identifier: MIT
// The sidecar project file: round trip, location, and fallback when the graph's folder is read-only.
#include "document/project_file.h"
#include "gui_test_support.h"

#include <QFileInfo>
#include <QProcess>
#include <QTest>

#include <unistd.h>

using namespace remat;
using namespace remat::ui;

class TestProjectFile : public QObject {
    Q_OBJECT

    /// Runs one test function of this binary again as user nobody, with a home of its own.
    static void runAsNobody(const char* function)
    {
        QTemporaryDir home;
        QVERIFY(QFile::setPermissions(home.path(),
            QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ReadOther | QFile::WriteOther
                | QFile::ExeOther));
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("HOME"), home.path());
        env.remove(QStringLiteral("XDG_DATA_HOME"));
        env.remove(QStringLiteral("XDG_RUNTIME_DIR"));
        QProcess child;
        child.setProcessEnvironment(env);
        child.setProcessChannelMode(QProcess::MergedChannels);
        child.start(QStringLiteral("setpriv"),
            {QStringLiteral("--reuid=65534"), QStringLiteral("--regid=65534"),
                QStringLiteral("--clear-groups"), QCoreApplication::applicationFilePath(),
                QString::fromLatin1(function)});
        QVERIFY2(child.waitForFinished(60'000), "setpriv did not finish");
        const QString output = QString::fromLocal8Bit(child.readAll());
        QVERIFY2(child.exitStatus() == QProcess::NormalExit && child.exitCode() == 0, qPrintable(output));
        QVERIFY2(output.contains(QStringLiteral("PASS   : TestProjectFile::") + QLatin1String(function)),
            qPrintable(output));
    }

private Q_SLOTS:
    void initTestCase() { test::isolate(); }

    void roundTrip()
    {
        QTemporaryDir dir;
        const QString graph = dir.filePath(QStringLiteral("g.json"));
        ProjectData data;
        data.tags["mm_3"] = CheckpointPolicy::MustSave;
        data.tags["relu"] = CheckpointPolicy::None; // a cleared file tag
        data.partitioner = PartitionerKind::Default;
        data.rules = RuleSet::Newest;
        QString error;
        const QString path = ProjectFile::saveLocation(graph);
        QCOMPARE(path, graph + QStringLiteral(".remat"));
        QVERIFY(ProjectFile::write(path, graph, data, &error));
        QCOMPARE(ProjectFile::find(graph), path);
        const auto back = ProjectFile::read(path, &error);
        QVERIFY2(back, qPrintable(error));
        QVERIFY(*back == data);
    }

    void budgetRoundTrip()
    {
        QTemporaryDir dir;
        const QString graph = dir.filePath(QStringLiteral("g.json"));
        ProjectData data;
        data.rules = RuleSet::Torch113;
        data.budgetMode = true;
        data.budget = BudgetSettings {
            0.35, KnapsackSolver::Greedy, RuntimeEstimatorKind::Roofline, QStringLiteral("A100-SXM")};
        QString error;
        const QString path = ProjectFile::saveLocation(graph);
        QVERIFY(ProjectFile::write(path, graph, data, &error));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray text = file.readAll();
        QVERIFY(text.contains("\"partitioner\": \"budget\""));
        QVERIFY(text.contains("\"solver\": \"greedy\""));
        const auto back = ProjectFile::read(path, &error);
        QVERIFY2(back, qPrintable(error));
        QVERIFY(*back == data);

        // Switching back off the budget keeps its settings, under the core partitioner's name.
        data.budgetMode = false;
        data.partitioner = PartitionerKind::MinCut;
        QVERIFY(ProjectFile::write(path, graph, data, &error));
        const auto again = ProjectFile::read(path, &error);
        QVERIFY(again && *again == data);
    }

    void activationOffloadingRoundTrip()
    {
        QTemporaryDir dir;
        const QString graph = dir.filePath(QStringLiteral("g.json"));
        ProjectData data;
        data.activationOffloading = true;
        QString error;
        const QString path = ProjectFile::saveLocation(graph);
        QVERIFY(ProjectFile::write(path, graph, data, &error));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(file.readAll().contains("\"activation_offloading\": true"));
        const auto back = ProjectFile::read(path, &error);
        QVERIFY2(back, qPrintable(error));
        QCOMPARE(back->activationOffloading, std::optional<bool>(true));
        QVERIFY(*back == data);
    }

    void inductorJointPassesRoundTrip()
    {
        QTemporaryDir dir;
        const QString graph = dir.filePath(QStringLiteral("g.log"));
        QString error;
        const QString path = ProjectFile::saveLocation(graph);
        for (const bool replay : {true, false}) {
            ProjectData data;
            data.inductorJointPasses = replay;
            QVERIFY(ProjectFile::write(path, graph, data, &error));
            QFile file(path);
            QVERIFY(file.open(QIODevice::ReadOnly));
            QVERIFY(file.readAll().contains(
                replay ? "\"inductor_joint_passes\": true" : "\"inductor_joint_passes\": false"));
            const auto back = ProjectFile::read(path, &error);
            QVERIFY2(back, qPrintable(error));
            QVERIFY(*back == data);
        }
        // Unset (as recorded) writes no key.
        QVERIFY(ProjectFile::write(path, graph, ProjectData {}, &error));
        const auto back = ProjectFile::read(path, &error);
        QVERIFY(back && !back->inductorJointPasses);
    }

    void unwritableFolderFallsBackToUserData()
    {
        // A folder that cannot take a file (here: one that does not exist) sends the project
        // to the user's data folder; so does the bundled sample, which lives in the binary.
        QTemporaryDir dir;
        const QString graph = dir.filePath(QStringLiteral("missing/g.json"));
        const QString path = ProjectFile::saveLocation(graph);
        QVERIFY(!path.startsWith(dir.path()));
        QVERIFY(path.startsWith(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)));
        QVERIFY(path.endsWith(QStringLiteral(".remat")));
        const QString sample = ProjectFile::saveLocation(QStringLiteral(":/samples/transformer_block.json"));
        QVERIFY(sample.startsWith(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)));
    }

    void readOnlyFolderFallsBackToUserData()
    {
        QTemporaryDir dir;
        const QString graph = dir.filePath(QStringLiteral("g.json"));
        QFile::setPermissions(dir.path(), QFile::ReadOwner | QFile::ExeOwner);
        if (QFileInfo(dir.path()).isWritable()) {
            QVERIFY2(::geteuid() == 0, "a folder made read-only stayed writable");
            runAsNobody(QTest::currentTestFunction()); // root writes anywhere: an ordinary user does not
            return;
        }
        const QString path = ProjectFile::saveLocation(graph);
        QVERIFY(!path.startsWith(dir.path()));
        QVERIFY(path.endsWith(QStringLiteral(".remat")));
        QCOMPARE(
            ProjectFile::saveLocation(QStringLiteral(":/samples/transformer_block.json")).isEmpty(), false);
        QFile::setPermissions(dir.path(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    }

    void rejectsOtherFiles()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("x.remat"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("{\"format\": \"joint-graph\"}");
        file.close();
        QString error;
        QVERIFY(!ProjectFile::read(path, &error));
        QVERIFY(error.contains(QStringLiteral("not a Remat Explorer project file")));
    }
};

QTEST_MAIN(TestProjectFile)
#include "tst_projectfile.moc"
