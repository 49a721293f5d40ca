// SPDX-License-Identifier: MIT
// A task for another core runs its work exactly once, there or, if that thread is late, here.
#include "io/other_core_task.h"

#include <QTest>

#include <atomic>
#include <chrono>
#include <numeric>
#include <thread>
#include <vector>

using namespace remat;

class TestOtherCoreTask : public QObject {
    Q_OBJECT

private slots:
    void finishReturnsOnceTheWorkIsDone()
    {
        std::vector<long> values(100000);
        std::atomic<int> runs {0};
        OtherCoreTask task([&] {
            std::iota(values.begin(), values.end(), 1L);
            ++runs;
        });
        task.finish();
        QCOMPARE(runs.load(), 1);
        QCOMPARE(std::accumulate(values.begin(), values.end(), 0L), 100000L * 100001L / 2);
        task.finish(); // again: nothing more to do
        QCOMPARE(runs.load(), 1);
    }

    void theDestructorWaitsForTheWork()
    {
        std::atomic<int> runs {0};
        {
            OtherCoreTask task([&] { ++runs; });
        }
        QCOMPARE(runs.load(), 1);
    }

    void runHereUnlessStartedDoesNotWaitForTheOtherThread()
    {
        // Started there, the work waits for a signal sent only after runHereUnlessStarted()
        // returned: had it waited for the work, the work would see no signal within 5 s.
        // Not started yet, the work runs here and is done when the call returns.
        for (int round = 0; round < 20; ++round) {
            const auto caller = std::this_thread::get_id();
            std::atomic<bool> released {false};
            std::atomic<bool> ranHere {false};
            std::atomic<bool> sawRelease {false};
            std::atomic<int> runs {0};
            OtherCoreTask task([&] {
                ++runs;
                if (std::this_thread::get_id() == caller) {
                    ranHere = true;
                    return;
                }
                const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
                while (!released && std::chrono::steady_clock::now() < deadline)
                    std::this_thread::yield();
                sawRelease = released.load();
            });
            if (round % 2 == 0) // give the thread time to start
                std::this_thread::sleep_for(std::chrono::milliseconds(5));
            task.runHereUnlessStarted();
            if (ranHere)
                QCOMPARE(runs.load(), 1);
            released = true;
            task.finish();
            QCOMPARE(runs.load(), 1);
            QVERIFY(ranHere || sawRelease);
        }
    }

    void manyTasksEachRunOnce()
    {
        // Some start before their finish(), some after: every one runs exactly once.
        std::vector<int> runs(300, 0);
        for (std::size_t i = 0; i < runs.size(); ++i) {
            OtherCoreTask task([&runs, i] { ++runs[i]; });
            if (i % 2 == 0)
                task.finish();
        }
        QCOMPARE(std::count(runs.begin(), runs.end(), 1), static_cast<long>(runs.size()));
    }
};

QTEST_GUILESS_MAIN(TestOtherCoreTask)
#include "tst_othercoretask.moc"
