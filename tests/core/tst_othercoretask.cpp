// SPDX-License-Identifier: MIT
// A task for another core runs its work exactly once, there or, if that thread is late, here.
#include "io/other_core_task.h"

#include <QTest>

#include <atomic>
#include <numeric>
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
