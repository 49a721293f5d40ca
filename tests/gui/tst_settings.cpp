// SPDX-License-Identifier: MIT
// Settings are written off the GUI thread (a QSettings sync takes a lock file and two fsyncs, which
// stalled the GUI for 100 ms under disk load), yet read back at once and on disk by the end.
#include "gui_test_support.h"
#include "model/background_writes.h"
#include "window/settings.h"

#include <QSemaphore>
#include <QSettings>
#include <QTest>

using namespace remat;
using namespace remat::ui;

class TestSettings : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { test::isolate(); }
    void cleanup() { Settings::clearAll(); }

    void aChangeIsSeenAtOnceAndWrittenByTheBackgroundWriter()
    {
        QVERIFY(Settings::legendVisible()); // the default
        QSemaphore release;
        BackgroundWrites::post([&release] { release.acquire(); }); // holds the writer
        Settings::setLegendVisible(false);
        Settings::addRecentFile(QStringLiteral("/tmp/a.json"));
        QVERIFY(!Settings::legendVisible());
        QCOMPARE(Settings::recentFiles(), QStringList {QStringLiteral("/tmp/a.json")});
        // Not on disk yet: the GUI thread did not write it itself.
        QVERIFY(!QSettings().contains(QStringLiteral("canvas/legend")));
        release.release();
        Settings::flush();
        QSettings onDisk; // as the next run reads it
        QCOMPARE(onDisk.value(QStringLiteral("canvas/legend")).toBool(), false);
        QCOMPARE(onDisk.value(QStringLiteral("files/recent")).toStringList(),
            QStringList {QStringLiteral("/tmp/a.json")});
    }

    void writesLandInTheOrderTheyWereMade()
    {
        for (int i = 0; i < 20; ++i)
            Settings::setLastOpenFolder(QStringLiteral("/tmp/folder%1").arg(i));
        Settings::flush();
        QCOMPARE(QSettings().value(QStringLiteral("files/lastFolder")).toString(),
            QStringLiteral("/tmp/folder19"));
    }

    void aPaletteBackToTheDefaultsRemovesItsKeys()
    {
        CanvasPalette changed = CanvasPalette::defaults();
        const auto& first = CanvasPalette::entries().front();
        changed.*first.member = QColor(Qt::magenta);
        Settings::setPalette(changed);
        QCOMPARE(Settings::palette().*first.member, QColor(Qt::magenta));
        Settings::flush();
        QVERIFY(QSettings().contains(QStringLiteral("canvas/colours/") + QLatin1String(first.key)));
        Settings::setPalette(CanvasPalette::defaults());
        QCOMPARE(Settings::palette().*first.member, CanvasPalette::defaults().*first.member);
        Settings::flush();
        QVERIFY(!QSettings().contains(QStringLiteral("canvas/colours/") + QLatin1String(first.key)));
    }
};

QTEST_MAIN(TestSettings)
#include "tst_settings.moc"
