// SPDX-License-Identifier: MIT
// A headless command's heap is on huge pages from its first allocation: the test starts itself
// again as a fresh process that sets the heap up as main() does, fills a block and counts its page
// faults. The heap's start moves with every start (address randomization), so it tries several.
#include "cli/huge_pages.h"

#include <QCoreApplication>
#include <QProcess>
#include <QTest>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sys/resource.h>

namespace {

constexpr std::size_t kBlockBytes = std::size_t {8} << 20;
/// Four huge pages, and a few small ones for what the C library touches meanwhile; on small
/// pages the block alone takes 2048 faults, and its first 2 MiB 512.
constexpr long kMostFaults = 32;
constexpr int kStarts = 16;
const char* const kProbeFlag = "--probe";

long minorFaults()
{
    rusage usage {};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_minflt;
}

/// The child: prints the faults of filling a fresh block, or "declined".
int probe()
{
    if (!remat::useHugePageHeap(std::uintmax_t {4} << 20)) {
        std::puts("declined");
        return 0;
    }
    const long before = minorFaults();
    auto* block = static_cast<char*>(std::malloc(kBlockBytes));
    std::memset(block, 1, kBlockBytes);
    const long faults = minorFaults() - before;
    std::printf("%ld %d\n", faults, block[kBlockBytes - 1]);
    std::free(block);
    return 0;
}

} // namespace

class TestHugePageHeap : public QObject {
    Q_OBJECT
private slots:
    void blocksStartOnHugePages()
    {
        for (int start = 0; start < kStarts; ++start) {
            QProcess child;
            child.start(QCoreApplication::applicationFilePath(), {kProbeFlag});
            QVERIFY(child.waitForFinished(30000));
            QCOMPARE(child.exitCode(), 0);
            const QString output = QString::fromUtf8(child.readAllStandardOutput()).trimmed();
            if (output == "declined")
                QSKIP("SKIPPED: no huge-page heap here (transparent huge pages not in madvise mode, "
                      "GLIBC_TUNABLES or REMAT_NO_HUGE_PAGES set, or a sanitizer build)");
            bool ok = false;
            const long faults = output.section(' ', 0, 0).toLong(&ok);
            QVERIFY2(ok, qPrintable("unexpected probe output: " + output));
            QVERIFY2(faults <= kMostFaults,
                qPrintable(QString("start %1: filling 8 MiB took %2 page faults (at most %3 on huge pages)")
                               .arg(start)
                               .arg(faults)
                               .arg(kMostFaults)));
        }
    }
};

int main(int argc, char** argv)
{
    if (argc > 1 && std::strcmp(argv[1], kProbeFlag) == 0)
        return probe(); // before Qt allocates anything, as main() of the command line
    QCoreApplication app(argc, argv);
    TestHugePageHeap test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_hugepageheap.moc"
