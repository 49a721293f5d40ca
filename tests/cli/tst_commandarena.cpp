// SPDX-License-Identifier: MIT
// The command arena hands out aligned, disjoint blocks from its region until it is full, to any
// number of threads, and tells its blocks from malloc's. One region per process, as in the
// command line: the test functions run in order on the arena the first one starts.
#include "cli/command_arena.h"

#include <QTest>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <thread>
#include <vector>

namespace {

namespace arena = remat::command_arena;

constexpr std::size_t kRegionBytes = std::size_t {1} << 20;
constexpr std::uintptr_t kAlignment = __STDCPP_DEFAULT_NEW_ALIGNMENT__;

std::uintptr_t address(const void* block)
{
    return reinterpret_cast<std::uintptr_t>(block);
}

} // namespace

class TestCommandArena : public QObject {
    Q_OBJECT
private slots:
    void nothingBeforeStart()
    {
        QVERIFY(arena::allocate(16) == nullptr);
        int onStack = 0;
        QVERIFY(!arena::owns(&onStack));
        QVERIFY(!arena::owns(nullptr));
    }

    void startsOnce()
    {
        QVERIFY(arena::start(kRegionBytes));
        QVERIFY(!arena::start(kRegionBytes));
    }

    void blocksAreAlignedDisjointAndOwned()
    {
        std::vector<std::pair<std::uintptr_t, std::size_t>> blocks;
        for (const std::size_t bytes : {std::size_t {1}, std::size_t {0}, std::size_t {7}, std::size_t {16},
                 std::size_t {17}, std::size_t {100}, arena::kLargestBlock}) {
            void* block = arena::allocate(bytes);
            QVERIFY2(block, qPrintable(QString("no block of %1 bytes").arg(bytes)));
            QCOMPARE(address(block) % kAlignment, std::uintptr_t {0});
            QVERIFY(arena::owns(block));
            std::fill_n(static_cast<char*>(block), bytes, '\x5a'); // the whole block is writable
            blocks.emplace_back(address(block), std::max<std::size_t>(bytes, 1));
        }
        std::sort(blocks.begin(), blocks.end());
        for (std::size_t i = 1; i < blocks.size(); ++i)
            QVERIFY(blocks[i - 1].first + blocks[i - 1].second <= blocks[i].first);
    }

    void bigBlocksAndOthersAreNotItsOwn()
    {
        QVERIFY(arena::allocate(arena::kLargestBlock + 1) == nullptr);
        void* fromMalloc = std::malloc(64);
        QVERIFY(!arena::owns(fromMalloc));
        std::free(fromMalloc);
        int onStack = 0;
        QVERIFY(!arena::owns(&onStack));
    }

    void threadsGetDisjointBlocks()
    {
        constexpr int kThreads = 4;
        constexpr int kBlocksEach = 500;
        std::vector<std::vector<std::uintptr_t>> got(kThreads);
        std::vector<std::thread> threads;
        for (int t = 0; t < kThreads; ++t) {
            threads.emplace_back([&got, t] {
                for (int i = 0; i < kBlocksEach; ++i)
                    got[static_cast<std::size_t>(t)].push_back(address(arena::allocate(48)));
            });
        }
        for (std::thread& thread : threads)
            thread.join();
        std::vector<std::uintptr_t> all;
        for (const auto& list : got)
            all.insert(all.end(), list.begin(), list.end());
        QVERIFY(std::find(all.begin(), all.end(), std::uintptr_t {0}) == all.end());
        std::sort(all.begin(), all.end());
        for (std::size_t i = 1; i < all.size(); ++i)
            QVERIFY2(all[i - 1] + 48 <= all[i], "two threads were given overlapping blocks");
    }

    void aFullRegionSendsCallersToMalloc()
    {
        std::size_t handedOut = 0;
        while (void* block = arena::allocate(arena::kLargestBlock)) {
            QVERIFY(arena::owns(block));
            handedOut += arena::kLargestBlock;
            QVERIFY2(handedOut <= kRegionBytes, "more blocks than the region holds");
        }
        QVERIFY(handedOut > kRegionBytes / 2);
        QVERIFY(arena::allocate(1) == nullptr); // full stays full
    }
};

QTEST_GUILESS_MAIN(TestCommandArena)
#include "tst_commandarena.moc"
