// SPDX-License-Identifier: MIT
// The app's one way to write a file (project files, session records, CSV, plots, screenshots): a
// new file renamed over the old one, never the old one rewritten in place.
#include "gui_test_support.h"
#include "model/atomic_write.h"

#include <QDir>
#include <QTest>

#include <unistd.h>

using namespace remat::ui;

class TestAtomicWrite : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void replacesTheFileWhole()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("g.json.remat"));
        QCOMPARE(writeFileAtomic(path, "old"), QString());
        // A second name for the old file: an in-place write would change what it reads too.
        const QString link = dir.filePath(QStringLiteral("link"));
        QCOMPARE(::link(QFile::encodeName(path).constData(), QFile::encodeName(link).constData()), 0);
        QCOMPARE(writeFileAtomic(path, "new contents"), QString());
        QCOMPARE(test::readFile(path), QByteArray("new contents"));
        QCOMPARE(test::readFile(link), QByteArray("old"));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 2); // no temporary file left
    }

    void keepsThePermissionsOfTheFileItReplaces()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("plan.json"));
        QCOMPARE(writeFileAtomic(path, "1"), QString());
        QVERIFY(QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner));
        QCOMPARE(writeFileAtomic(path, "2"), QString());
        QCOMPARE(QFile::permissions(path) & (QFile::ReadGroup | QFile::ReadOther), QFile::Permissions {});
    }

    void aFailureNamesTheFile()
    {
        QTemporaryDir dir;
        QCOMPARE(writeFileAtomic(dir.filePath(QStringLiteral("a-file")), "x"), QString());
        const QString path = dir.filePath(QStringLiteral("a-file/below.png")); // a file is no folder
        const QString error = writeFileAtomic(path, "x");
        QVERIFY2(error.startsWith(path + QStringLiteral(": cannot write: ")), qPrintable(error));
        QCOMPARE(test::readFile(dir.filePath(QStringLiteral("a-file"))), QByteArray("x"));
    }
};

QTEST_GUILESS_MAIN(TestAtomicWrite)
#include "tst_atomicwrite.moc"
