// SPDX-License-Identifier: MIT
// The broken graph files of tests/data/bad/ (kind "graph" in MANIFEST.tsv), opened in the desktop
// app as a user opens them: each gets the "Cannot open the graph" dialog with its own message
// (the file, the place, what is wrong), the window stays usable, and nothing crashes.
#include "../bad_corpus_manifest.h"
#include "document/graph_document.h"
#include "gui_test_support.h"
#include "main_window_test_support.h"
#include "window/main_window.h"

#include <QApplication>
#include <QFile>
#include <QMessageBox>
#include <QRegularExpression>
#include <QTest>
#include <QTimer>

#include <memory>

using namespace remat;
using namespace remat::ui;
using remat::test::kBadDir;
using namespace remat::ui::test;

class TestBadGraphFiles : public QObject {
    Q_OBJECT
    std::unique_ptr<MainWindow> m_window;

private Q_SLOTS:
    void initTestCase()
    {
        remat::ui::test::isolate();
        m_window = std::make_unique<MainWindow>();
        m_window->show();
    }

    void cleanupTestCase() { m_window.reset(); }

    void eachShowsItsMessageInADialog_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("pattern");
        int rows = 0;
        for (const remat::test::BadCase& c : remat::test::badCorpusManifest(QStringLiteral("graph"))) {
            QTest::newRow(qPrintable(c.file)) << c.file << c.pattern;
            ++rows;
        }
        QVERIFY2(rows >= 80, "MANIFEST.tsv lists the broken graph files");
    }

    void eachShowsItsMessageInADialog()
    {
        QFETCH(QString, file);
        QFETCH(QString, pattern);
        const QString path = kBadDir + QLatin1Char('/') + file;
        QVERIFY2(QFile::exists(path), qPrintable(path));

        // The dialog is modal (its own event loop): read and close it from a timer.
        QString title;
        QString text;
        QString other;
        QTimer watcher;
        connect(&watcher, &QTimer::timeout, this, [&] {
            QWidget* modal = QApplication::activeModalWidget();
            if (auto* box = qobject_cast<QMessageBox*>(modal)) {
                title = box->windowTitle();
                text = box->text();
                box->done(QMessageBox::Ok);
            } else if (modal) {
                other = QString::fromLatin1(modal->metaObject()->className());
                modal->close();
            }
        });
        watcher.start(10);
        m_window->openFile(path);
        QTRY_VERIFY_WITH_TIMEOUT(!text.isEmpty() || !other.isEmpty(), kTimeoutMs);
        QVERIFY2(other.isEmpty(), qPrintable(QStringLiteral("another dialog came up: ") + other));
        QCOMPARE(title, QStringLiteral("Cannot open the graph"));
        QVERIFY2(text.contains(file), qPrintable(text));
        const QRegularExpression expected(pattern);
        QVERIFY2(
            expected.match(text).hasMatch(), qPrintable(text + QStringLiteral("\n  expected: ") + pattern));
        QVERIFY(!m_window->document()->graph());
    }
};

QTEST_MAIN(TestBadGraphFiles)
#include "tst_badgraphfiles.moc"
