// SPDX-License-Identifier: MIT
// The broken project (.remat) files of tests/data/bad/ (kind "project" in MANIFEST.tsv), read through
// ProjectFile's public API: each is refused with a message naming the file, or read without the
// broken part; none crashes.
#include "../bad_corpus_manifest.h"
#include "document/project_file.h"
#include "gui_test_support.h"

#include <QFile>
#include <QRegularExpression>
#include <QTest>

using namespace remat;
using namespace remat::ui;
using remat::test::kBadDir;

class TestBadProjectFiles : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { remat::ui::test::isolate(); }

    void eachIsRefusedOrReadSafely_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("pattern");
        int rows = 0;
        for (const remat::test::BadCase& c : remat::test::badCorpusManifest(QStringLiteral("project"))) {
            QTest::newRow(qPrintable(c.file)) << c.file << c.pattern;
            ++rows;
        }
        QVERIFY2(rows >= 10, "MANIFEST.tsv lists the project files");
    }

    void eachIsRefusedOrReadSafely()
    {
        QFETCH(QString, file);
        QFETCH(QString, pattern);
        const QString path = kBadDir + QLatin1Char('/') + file;
        QVERIFY2(QFile::exists(path), qPrintable(path));
        QString error;
        const auto data = ProjectFile::read(path, &error);
        // An accepted file keeps only what it says correctly: no tag from a broken entry.
        const QString message = data ? QStringLiteral("(accepted: %1 tags)").arg(data->tags.size()) : error;
        if (!data)
            QVERIFY2(message.startsWith(path + QLatin1Char(':')), qPrintable(message));
        const QRegularExpression expected(pattern);
        QVERIFY2(expected.isValid(), qPrintable(pattern));
        QVERIFY2(expected.match(message).hasMatch(),
            qPrintable(message + QStringLiteral("\n  expected: ") + pattern));
    }
};

QTEST_MAIN(TestBadProjectFiles)
#include "tst_badprojectfiles.moc"
