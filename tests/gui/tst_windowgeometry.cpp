// SPDX-License-Identifier: MIT
// The main window stays on its screen: a geometry saved on a larger screen is shrunk to the
// available area and moved back onto it; one that fits is restored as it was. The offscreen
// platform is given a small laptop's screen (1366x768).
#include "gui_test_support.h"
#include "window/main_window.h"
#include "window/settings.h"
#include "window/window_geometry.h"

#include <QApplication>
#include <QScreen>
#include <QTemporaryDir>
#include <QTest>

#include <cstdio>

using namespace remat;
using namespace remat::ui;

namespace {

/// What saveGeometry() of a window at `geometry` gives, as a session on another screen stored it.
QByteArray savedGeometry(const QRect& geometry)
{
    QWidget window;
    window.setGeometry(geometry);
    return window.saveGeometry();
}

} // namespace

class TestWindowGeometry : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { test::isolate(); }
    void cleanup() { Settings::clearAll(); }

    void fitInside_data()
    {
        QTest::addColumn<QRect>("window");
        QTest::addColumn<QRect>("expected");
        const QRect screen(0, 0, 1400, 900);
        QTest::addRow("fits") << QRect(100, 50, 800, 600) << QRect(100, 50, 800, 600);
        QTest::addRow("too large") << QRect(0, 0, 2560, 1440) << screen;
        QTest::addRow("too wide, moved left") << QRect(300, 100, 1600, 700) << QRect(0, 100, 1400, 700);
        QTest::addRow("off the right edge") << QRect(3000, 200, 800, 600) << QRect(600, 200, 800, 600);
        QTest::addRow("above and left") << QRect(-500, -300, 800, 600) << QRect(0, 0, 800, 600);
        QTest::addRow("below") << QRect(100, 850, 800, 600) << QRect(100, 300, 800, 600);
    }

    void fitInside()
    {
        QFETCH(QRect, window);
        QFETCH(QRect, expected);
        QCOMPARE(remat::ui::fitInside(window, QRect(0, 0, 1400, 900)), expected);
        // A screen that does not start at the origin (right of another, below a panel).
        const QRect second(1400, 30, 1400, 900);
        QCOMPARE(remat::ui::fitInside(window.translated(1400, 30), second), expected.translated(1400, 30));
    }

    void aWindowSavedOnALargerScreenIsClamped()
    {
        const QRect available = QGuiApplication::primaryScreen()->availableGeometry();
        const QRect large(
            available.x() + 200, available.y() + 100, available.width() * 3, available.height() * 2);
        Settings::setWindowGeometry(savedGeometry(large));
        MainWindow window;
        window.setInteractive(false);
        QVERIFY2(available.contains(window.geometry()),
            qPrintable(QStringLiteral("%1,%2 %3x%4 is not inside the screen's %5x%6")
                           .arg(window.x())
                           .arg(window.y())
                           .arg(window.width())
                           .arg(window.height())
                           .arg(available.width())
                           .arg(available.height())));
        QCOMPARE(window.size(), available.size());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        // Once shown, its frame is known and fits too.
        QTRY_VERIFY2(available.contains(window.frameGeometry()),
            qPrintable(QStringLiteral("frame %1,%2 %3x%4")
                           .arg(window.frameGeometry().x())
                           .arg(window.frameGeometry().y())
                           .arg(window.frameGeometry().width())
                           .arg(window.frameGeometry().height())));
    }

    void aWindowSavedOffTheScreenComesBackOntoIt()
    {
        const QRect available = QGuiApplication::primaryScreen()->availableGeometry();
        Settings::setWindowGeometry(
            savedGeometry(QRect(available.right() + 900, available.bottom() + 500, 1000, 700)));
        MainWindow window;
        window.setInteractive(false);
        QCOMPARE(
            window.geometry(), QRect(available.right() + 1 - 1000, available.bottom() + 1 - 700, 1000, 700));
    }

    void theDefaultSizeFitsASmallScreen()
    {
        MainWindow window; // nothing saved: 1500x950 would not fit
        window.setInteractive(false);
        QVERIFY(QGuiApplication::primaryScreen()->availableGeometry().contains(window.geometry()));
    }

    void anExplicitSizeIsKept()
    {
        MainWindow window;
        window.setInteractive(false);
        window.resize(1600, 1000); // what a headless run's --size does, whatever the screen
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTest::qWait(50);
        QCOMPARE(window.size(), QSize(1600, 1000));
    }

    void aWindowThatFitsComesBackAsSaved()
    {
        const QRect available = QGuiApplication::primaryScreen()->availableGeometry();
        const QRect small(
            available.x() + 50, available.y() + 20, available.width() - 100, available.height() - 40);
        Settings::setWindowGeometry(savedGeometry(small));
        MainWindow window;
        window.setInteractive(false);
        QCOMPARE(window.geometry(), small);
    }
};

int main(int argc, char** argv)
{
    QTemporaryDir dir;
    const QString config = dir.filePath(QStringLiteral("screens.json"));
    QFile file(config);
    if (!file.open(QIODevice::WriteOnly)
        || file.write(R"({"screens": [{"name": "laptop", "x": 0, "y": 0, "width": 1366, "height": 768,
                          "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]})")
            < 0)
        return 1;
    file.close();
    qputenv("QT_QPA_PLATFORM", "offscreen:configfile=" + config.toLocal8Bit());
    QApplication app(argc, argv);
    if (QGuiApplication::primaryScreen()->size() != QSize(1366, 768)) {
        std::fprintf(stderr, "the offscreen platform ignored %s\n", qPrintable(config));
        return 1;
    }
    TestWindowGeometry test;
    return QTest::qExec(&test, argc, argv);
}
#include "tst_windowgeometry.moc"
