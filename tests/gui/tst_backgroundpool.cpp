// SPDX-License-Identifier: MIT
// Our background jobs keep off Qt's global thread pool: Qt's raster engine splits the GUI
// thread's large fills across that pool and waits for them, so a job of ours there holds up the
// GUI thread's paints, and one that lowers its thread's priority leaves them to a demoted thread.
#include "document/graph_opener.h"
#include "gui_test_support.h"
#include "model/background_pool.h"
#include "model/thread_handoff.h"

#include <QFuture>
#include <QSignalSpy>
#include <QTest>
#include <QThread>
#include <QThreadPool>

#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <future>

using namespace remat;
using namespace remat::ui;

namespace {

constexpr int kTimeoutMs = 60000;

/// The nice value of the global pool's thread that runs the next job there.
int niceOfGlobalPoolThread()
{
    std::promise<int> nice;
    QThreadPool::globalInstance()->start([&nice] {
        errno = 0;
        const int value = getpriority(PRIO_PROCESS, static_cast<id_t>(gettid()));
        nice.set_value(errno == 0 ? value : -100);
    });
    return nice.get_future().get();
}

} // namespace

class TestBackgroundPool : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        test::isolate();
        m_globalThreads = QThreadPool::globalInstance()->maxThreadCount();
        m_globalExpiry = QThreadPool::globalInstance()->expiryTimeout();
    }
    void cleanup()
    {
        QThreadPool::globalInstance()->setMaxThreadCount(m_globalThreads);
        QThreadPool::globalInstance()->setExpiryTimeout(m_globalExpiry);
    }

    void openingAGraphLeavesTheGlobalPoolsThreadsAsTheyWere()
    {
        // One thread, kept alive: the open would have run on it and left it lowered.
        QThreadPool* global = QThreadPool::globalInstance();
        global->setMaxThreadCount(1);
        global->setExpiryTimeout(-1);
        const int before = niceOfGlobalPoolThread();
        QVERIFY(before != -100);

        GraphOpener opener;
        QSignalSpy opened(&opener, &GraphOpener::opened);
        QSignalSpy failed(&opener, &GraphOpener::failed);
        opener.open(test::samplePath("gpt_small.json"));
        QVERIFY(opened.wait(kTimeoutMs));
        QCOMPARE(failed.count(), 0);
        QVERIFY(opened.first().first().value<LoadedGraphPtr>()->graph.size() > 100);

        QCOMPARE(niceOfGlobalPoolThread(), before);
    }

    void concurrentJobsRunInTheBackgroundPool()
    {
        QFuture<std::pair<bool, bool>> where = runConcurrently([] {
            const QThread* here = QThread::currentThread();
            return std::pair {backgroundPool().contains(here), QThreadPool::globalInstance()->contains(here)};
        });
        // Waiting in result() would let Qt run a job not yet started on this thread instead.
        QTRY_VERIFY_WITH_TIMEOUT(where.isFinished(), kTimeoutMs);
        const auto [inBackgroundPool, inGlobalPool] = where.result();
        QVERIFY(inBackgroundPool);
        QVERIFY(!inGlobalPool);
    }

private:
    int m_globalThreads = 0;
    int m_globalExpiry = 0;
};

QTEST_MAIN(TestBackgroundPool)
#include "tst_backgroundpool.moc"
