// SPDX-License-Identifier: MIT
// The GUI stall probe excuses the time a VM's host took the GUI thread's CPU away: the steal
// column of that CPU's line in /proc/stat.
#include "window/cpu_steal_time.h"

#include <QFile>
#include <QTest>

using namespace remat::ui;

namespace {

// A 2-vCPU guest's /proc/stat, cut after the CPU lines (from the development VM).
constexpr const char* kTwoCpus = "cpu  1348502 122622 184517 607336 4214 0 2953 157782 0 0\n"
                                 "cpu0 673009 61001 92790 303190 2100 0 1822 79120 0 0\n"
                                 "cpu1 675493 61621 91727 304146 2114 0 1131 78662 0 0\n"
                                 "intr 123456 0 9 0\n";

} // namespace

class TestCpuStealTime : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void eachCpuHasItsOwnEighthColumn()
    {
        QCOMPARE(stealTicks(kTwoCpus, 0), std::optional<unsigned long long>(79120));
        QCOMPARE(stealTicks(kTwoCpus, 1), std::optional<unsigned long long>(78662));
    }

    void theTotalLineIsNoCpu()
    {
        // "cpu  " (the sum over CPUs) comes first, with no number and no newline before it.
        QCOMPARE(stealTicks("cpu  1 2 3 4 5 6 7 8 0 0\n", 0), std::nullopt);
    }

    void cpuOneIsNotCpuTen()
    {
        const char* many = "cpu  0 0 0 0 0 0 0 0\ncpu10 1 1 1 1 1 1 1 10\ncpu1 2 2 2 2 2 2 2 1\n";
        QCOMPARE(stealTicks(many, 1), std::optional<unsigned long long>(1));
        QCOMPARE(stealTicks(many, 10), std::optional<unsigned long long>(10));
    }

    void unlistedOrCutShortIsUnknown()
    {
        QCOMPARE(stealTicks(kTwoCpus, 2), std::nullopt);
        QCOMPARE(stealTicks("cpu  1 2 3\ncpu0 1 2 3 4 5 6 7", 0), std::nullopt); // seven numbers
        QCOMPARE(stealTicks("cpu  1\ncpu0 1 2 x 4 5 6 7 8\n", 0), std::nullopt);
        QCOMPARE(stealTicks(nullptr, 0), std::nullopt);
        QCOMPARE(stealTicks(kTwoCpus, -1), std::nullopt);
    }

    void thisMachinesFileReads()
    {
        QFile file(QStringLiteral("/proc/stat"));
        QVERIFY2(file.open(QIODevice::ReadOnly), "this probe is for Linux: /proc/stat must be readable");
        const QByteArray text = file.readAll();
        QVERIFY(stealTicks(text.constData(), 0).has_value());
    }
};

QTEST_APPLESS_MAIN(TestCpuStealTime)
#include "tst_cpustealtime.moc"
