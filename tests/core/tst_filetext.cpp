// SPDX-License-Identifier: MIT
// The engine's file writer (plans, run scripts, CSV, project files of the command line): a new file
// renamed over the old one, with the old one's permissions; a failure names the file.
#include "graph/error.h"
#include "io/file_text.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>
#include <unistd.h>

using namespace remat;

class TestFileText : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void writesANewFileAndRenamesItOverTheOld()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("plan.json")).toStdString();
        writeFileAtomically(path, "old");
        // A second name for the old file: an in-place write would change what it reads too.
        const std::string link = dir.filePath(QStringLiteral("link")).toStdString();
        QCOMPARE(::link(path.c_str(), link.c_str()), 0);
        writeFileAtomically(path, "new contents");
        QCOMPARE(readFileText(path), std::string("new contents"));
        QCOMPARE(readFileText(link), std::string("old"));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 2); // no temporary file left
    }

    void keepsThePermissionsOfTheFileItReplaces()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("run.py")).toStdString();
        writeFileAtomically(path, "print(1)\n");
        QCOMPARE(::chmod(path.c_str(), 0750), 0);
        writeFileAtomically(path, "print(2)\n");
        struct stat after { };
        QCOMPARE(::stat(path.c_str(), &after), 0);
        QCOMPARE(after.st_mode & 07777, static_cast<mode_t>(0750));
    }

    void aFailureNamesTheFileAndLeavesNothing()
    {
        QTemporaryDir dir;
        const std::string blocker = dir.filePath(QStringLiteral("a-file")).toStdString();
        writeFileAtomically(blocker, "x");
        const std::string path = blocker + "/below.csv"; // a file is no folder
        try {
            writeFileAtomically(path, "x");
            QFAIL("writing below a file succeeded");
        } catch (const Error& e) {
            QVERIFY2(std::string(e.what()).starts_with(path + ": cannot write: "), e.what());
        }
        QCOMPARE(
            QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList {QStringLiteral("a-file")});
    }
};

QTEST_GUILESS_MAIN(TestFileText)
#include "tst_filetext.moc"
