// SPDX-License-Identifier: MIT
// Autosave writes the project file off the GUI thread (QSaveFile fsyncs, which can stall for 100 ms
// on a busy disk): the GUI thread returns at once, projectSaved comes when the file is on disk,
// and closing or opening a graph waits for the write, so that nothing is lost or read stale.
#include "document/graph_document.h"
#include "gui_test_support.h"
#include "main_window_test_support.h"
#include "model/background_writes.h"
#include "window/main_window.h"

#include <QSemaphore>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <chrono>
#include <thread>

using namespace remat;
using namespace remat::ui;
using namespace remat::ui::test;

class TestAutosave : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { test::isolate(); }

    void theProjectIsWrittenByTheBackgroundWriter()
    {
        QTemporaryDir dir;
        const QString path = copySample(dir, "mlp.json");
        const QString project = path + QStringLiteral(".remat");
        MainWindow w;
        w.setInteractive(true); // autosave on
        w.openFile(path);
        QTRY_VERIFY_WITH_TIMEOUT(idle(w), kTimeoutMs);
        const NodeId n = savedComputation(w);
        QVERIFY(n != kNoNode);

        QSemaphore release;
        BackgroundWrites::post([&release] { release.acquire(); }); // holds the writer
        QSignalSpy saved(w.document(), &GraphDocument::projectSaved);
        QCOMPARE(w.document()->tagNodes({n}, CheckpointPolicy::MustRecompute), 1);
        QVERIFY(w.document()->saveProject()); // returns with the writer still held
        QVERIFY(!readFile(project).contains("MUST_RECOMPUTE"));
        QCoreApplication::processEvents();
        QCOMPARE(saved.count(), 0); // not said before it is true
        release.release();
        QVERIFY(saved.wait(kTimeoutMs));
        QCOMPARE(saved.first().first().toString(), project);
        QVERIFY(readFile(project).contains("MUST_RECOMPUTE"));
    }

    void closingTheWindowWaitsForItsQueuedSave()
    {
        QTemporaryDir dir;
        const QString path = copySample(dir, "mlp.json");
        const QString project = path + QStringLiteral(".remat");
        QSemaphore release;
        std::thread releaser;
        {
            MainWindow w;
            w.setInteractive(true);
            w.openFile(path);
            QTRY_VERIFY_WITH_TIMEOUT(idle(w), kTimeoutMs);
            const NodeId n = savedComputation(w);
            QCOMPARE(w.document()->tagNodes({n}, CheckpointPolicy::MustRecompute), 1);
            BackgroundWrites::post([&release] { release.acquire(); }); // holds the writer
            QVERIFY(w.document()->saveProject());
            releaser = std::thread([&release] {
                std::this_thread::sleep_for(std::chrono::milliseconds(300));
                release.release();
            });
        } // the window closes while its save waits behind the held job
        releaser.join();
        QVERIFY(readFile(project).contains("MUST_RECOMPUTE")); // on disk as the window went
    }
};

QTEST_MAIN(TestAutosave)
#include "tst_autosave.moc"
